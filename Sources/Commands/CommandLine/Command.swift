/// One subcommand of `passkeyd` (`serve`, `keys rotate`, `users list`, …): the words that name it, the flags and
/// operands it takes, what it is for, and what it does. `CommandRegistry` lists them; the help text and the usage
/// printed with a refused command line are built from these declarations, so they show what the parser accepts.
package protocol Command: Sendable {
    /// The words that name it: `["serve"]`, `["keys", "rotate"]`.
    static var words: [String] { get }
    /// Other spellings of its one word (`--help`, `-h`); none by default.
    static var aliases: [String] { get }
    /// The flags it accepts, in the order its usage shows them.
    static var flags: [any Flag] { get }
    /// The words it takes after its own, in order; none by default.
    static var operands: [Operand] { get }
    /// What it does, for the help text: a few lines, each under 110 characters.
    static var summary: String { get }

    /// Reads the command line after the command's words; the default reads `flags` and `operands` with
    /// `ParsedArguments` and hands them to `init(_:)`.
    static func parse(_ arguments: [String]) throws(UsageError) -> Self
    /// The command, from its parsed arguments (reading each flag's typed value).
    init(_ arguments: ParsedArguments) throws(UsageError)
    /// Runs it and returns the exit status; a failure is printed on standard error and ends the process with its status.
    func run(_ context: CommandContext) async throws(CommandFailure) -> Int32
}

extension Command {
    package static var aliases: [String] { [] }
    package static var operands: [Operand] { [] }

    package static func parse(_ arguments: [String]) throws(UsageError) -> Self {
        do {
            return try Self(ParsedArguments(arguments, command: name, flags: flags, operands: operands))
        } catch {
            throw UsageError(error.message, usage: [synopsis])
        }
    }

    /// Its words as typed: "keys rotate".
    package static var name: String { words.joined(separator: " ") }

    /// Its usage line: `passkeyd`, its words, its operands, then its flags (those not hidden), e.g.
    /// `passkeyd audit verify DIR [--key KEY] [--previous CHECKPOINT]`.
    package static var synopsis: String {
        (["passkeyd"] + words + operands.map(\.usage) + flags.filter { !$0.isHidden }.map(\.usage))
            .joined(separator: " ")
    }
}
