/// A flag a command declares: a `--name` switch, or a `--name VALUE` option. The parser (`ParsedArguments`) reads
/// only the flags the command declares, and the usage line shows them (`Command.synopsis`), so the two never differ.
///
/// The grammar is the one passkeyd has always accepted: a flag is one argument, spelt exactly `--name` (there is no
/// `--name=VALUE` form and no single-dash short form), and an option's value is the next argument, whatever it is.
package protocol Flag: Sendable {
    /// `--name`, as typed.
    var name: String { get }
    /// The value's name in the usage (`FILE`, `N`); `nil` for a switch, which takes no value.
    var placeholder: String? { get }
    /// An option the command cannot run without: shown without brackets, and its absence is a usage error.
    var isRequired: Bool { get }
    /// Accepted but left out of the usage (`--host` and `--port` on the commands that only read the configuration).
    var isHidden: Bool { get }
    /// Why `value` is refused, as the end of a sentence after the flag's name; `nil` when it is accepted.
    func refusal(of value: String) -> String?
}

extension Flag {
    /// How the usage shows the flag: `--now`, `--config FILE`; in brackets unless required.
    var usage: String {
        let text = placeholder.map { "\(name) \($0)" } ?? name
        return isRequired ? text : "[\(text)]"
    }
}

/// A `--name` switch: on when it is given (once or more), off otherwise.
package struct Switch: Flag {
    package let name: String
    package var placeholder: String? { nil }
    package var isRequired: Bool { false }
    package var isHidden: Bool { false }

    package init(_ name: String) {
        self.name = name
    }

    package func refusal(of value: String) -> String? { nil }
}
