/// The load generator's own error: bad arguments, or a credentials file it cannot use. A failed exchange with the
/// server is the clients' `SoftwareClientError`.
struct LoadgenError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A stable identifier of what went wrong: a closed set, spelled in snake_case.
    enum Code: String, Hashable, Sendable, CaseIterable {

        /// The command line could not be understood.
        case usage = "usage"
        /// The credentials file could not be read or written.
        case credentials = "credentials"
    }

    let code: Code
    let reason: String
    let file: String
    let line: Int

    init(_ code: Code, _ reason: String, file: String = #fileID, line: Int = #line) {
        self.code = code
        self.reason = reason
        self.file = file
        self.line = line
    }

    var description: String { "\(code.rawValue): \(reason)" }

    static func == (lhs: LoadgenError, rhs: LoadgenError) -> Bool { lhs.code == rhs.code }
}
