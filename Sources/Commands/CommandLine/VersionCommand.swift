/// `passkeyd version` (or `--version`): prints the version.
package struct VersionCommand: Command, Equatable {
    /// The version printed.
    package static let version = "0.1.0"

    package static let words = ["version"]
    package static let aliases = ["--version"]
    package static let flags: [any Flag] = []
    package static let summary = "Print the version (also: passkeyd --version)."

    package init() {}

    package init(_ arguments: ParsedArguments) {}

    package func run(_ context: CommandContext) async throws(CommandFailure) -> Int32 {
        context.output("passkeyd \(Self.version)")
        return 0
    }
}
