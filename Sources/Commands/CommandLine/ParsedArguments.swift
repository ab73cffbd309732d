/// A command's arguments read against what it declares (`Command.flags`, `Command.operands`): the one parser of the
/// command line.
///
/// The arguments after the command's words are read in any order: a declared switch turns on; a declared option
/// takes the next argument as its value, whatever it is, and refuses one its type does not read; any other argument
/// starting with `--` is refused; every other argument is an operand. Then each required option must have been given,
/// and the operands must be exactly the declared ones. Every refusal is a `UsageError` naming the flag or word.
package struct ParsedArguments: Sendable {
    /// The command's words, for the refusals ("keys rotate").
    private let command: String
    /// Each option given, by name: its last value.
    private var values: [String: String] = [:]
    /// The switches given, by name.
    private var switches: Set<String> = []
    /// The operands, by name: one word each, or every remaining one for a repeated operand.
    private var operands: [String: [String]] = [:]

    /// Reads `arguments` (those after the command's words) for `command`, whose flags and operands are given.
    package init(_ arguments: [String], command: String, flags: [any Flag], operands declared: [Operand])
        throws(UsageError)
    {
        self.command = command
        var words: [String] = []
        var rest = arguments[...]
        while let argument = rest.popFirst() {
            guard argument.hasPrefix("--") else {
                words.append(argument)
                continue
            }
            guard let flag = flags.first(where: { $0.name == argument }) else {
                throw UsageError("unknown option \(argument) for \(command)")
            }
            guard flag.placeholder != nil else {
                switches.insert(flag.name)
                continue
            }
            guard let value = rest.popFirst() else { throw UsageError("\(flag.name) needs a value") }
            if let refusal = flag.refusal(of: value) { throw UsageError("\(flag.name) \(refusal)") }
            values[flag.name] = value
        }
        if let missing = flags.first(where: { $0.isRequired && values[$0.name] == nil }) {
            throw UsageError("\(command) needs \(missing.name)")
        }
        for operand in declared {
            if words.isEmpty, operand.isOptional { break }
            guard !words.isEmpty else {
                throw UsageError("\(command) needs \(operand.isRepeated ? "at least one " : "")\(operand.name)")
            }
            operands[operand.name] = operand.isRepeated ? words : [words.removeFirst()]
            if operand.isRepeated { words = [] }
        }
        if let extra = words.first { throw UsageError("unexpected argument \"\(extra)\"") }
    }

    /// Whether `flag` was given.
    package subscript(_ flag: Switch) -> Bool {
        switches.contains(flag.name)
    }

    /// The value of `option`, `nil` when it was not given.
    package subscript<Value>(_ option: Option<Value>) -> Value? {
        values[option.name].flatMap(option.value(of:))
    }

    /// The value of a required option (the parser has refused a command line without it).
    package func required<Value>(_ option: Option<Value>) throws(UsageError) -> Value {
        guard let value = self[option] else { throw UsageError("\(command) needs \(option.name)") }
        return value
    }

    /// The word given for `operand`: the first one, for a repeated operand.
    package func word(_ operand: Operand) -> String {
        operands[operand.name]?.first ?? ""
    }

    /// The words given for `operand`.
    package func words(_ operand: Operand) -> [String] {
        operands[operand.name] ?? []
    }
}
