/// `passkeyd help` (or `--help`, `-h`, or no arguments at all): prints the help text, built from the registry.
/// It reads no arguments: whatever follows is ignored.
package struct HelpCommand: Command, Equatable {
    package static let words = ["help"]
    package static let aliases = ["--help", "-h"]
    package static let flags: [any Flag] = []
    package static let summary = "Print this text (also: passkeyd --help, passkeyd -h, passkeyd alone)."

    package init() {}

    package init(_ arguments: ParsedArguments) {}

    /// Any arguments: ignored.
    package static func parse(_ arguments: [String]) -> Self {
        Self()
    }

    package func run(_ context: CommandContext) async throws(CommandFailure) -> Int32 {
        context.output(context.registry.help)
        return 0
    }
}
