import Foundation

/// What a command is given by the process that runs it: the environment, where its output goes, and the registry it
/// was found in (for `help`). Tests pass their own, to read what a command prints.
package struct CommandContext: Sendable {
    /// The process environment (`PASSKEYD_…` variables, `USER`).
    package let environment: [String: String]
    /// The commands of the binary.
    package let registry: CommandRegistry
    /// Writes one line of output (standard output).
    package let output: @Sendable (String) -> Void
    /// Writes one line of diagnostics (standard error).
    package let errorOutput: @Sendable (String) -> Void

    package init(
        environment: [String: String], registry: CommandRegistry,
        output: @escaping @Sendable (String) -> Void = { print($0) },
        errorOutput: @escaping @Sendable (String) -> Void = {
            FileHandle.standardError.write(Data("\($0)\n".utf8))
        }
    ) {
        self.environment = environment
        self.registry = registry
        self.output = output
        self.errorOutput = errorOutput
    }
}
