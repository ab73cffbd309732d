/// Why a command could not do its work, in one line, and the exit status it ends with: 2 for a configuration that
/// does not load (as `serve`), 1 for a failure of the work itself. `passkeyd` prints it on standard error after
/// `passkeyd: `.
package struct CommandFailure: Error, Sendable, Equatable, CustomStringConvertible {
    package let description: String
    package let status: Int32

    package init(_ description: String, status: Int32 = 1) {
        self.description = description
        self.status = status
    }
}
