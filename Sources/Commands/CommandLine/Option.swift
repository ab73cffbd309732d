/// A `--name VALUE` option whose value reads as a `Value`: the parser refuses a value that does not, with a message
/// naming the option; when the option is given more than once, the last value counts.
package struct Option<Value: Sendable>: Flag {
    package let name: String
    /// The value's name in the usage.
    package let valueName: String
    package let isRequired: Bool
    package let isHidden: Bool
    /// The value read from the argument, `nil` when it is refused.
    private let read: @Sendable (String) -> Value?
    /// What the value must be, after the option's name: "must be a number from 0 to 65535".
    private let requirement: String

    /// An option whose value is read by `read`; `requirement` completes the refusal "`name` …" of any other value.
    package init(
        _ name: String, _ placeholder: String, required: Bool = false, hidden: Bool = false, requirement: String,
        read: @escaping @Sendable (String) -> Value?
    ) {
        self.name = name
        self.valueName = placeholder
        self.isRequired = required
        self.isHidden = hidden
        self.requirement = requirement
        self.read = read
    }

    package var placeholder: String? { valueName }

    /// The value of `text`, `nil` when it is refused.
    package func value(of text: String) -> Value? {
        read(text)
    }

    package func refusal(of value: String) -> String? {
        read(value) == nil ? requirement : nil
    }

    /// The same option, accepted but left out of the usage.
    package var hidden: Self {
        Self(name, valueName, required: isRequired, hidden: true, requirement: requirement, read: read)
    }
}

extension Option where Value == String {
    /// Any text, the empty one included.
    package init(_ name: String, _ placeholder: String, required: Bool = false) {
        self.init(name, placeholder, required: required, requirement: "", read: { $0 })
    }

    /// Any text but the empty one: a path to write to, a connection string. `requirement` says what is needed.
    package static func nonEmpty(
        _ name: String, _ placeholder: String, required: Bool = false, requirement: String = "needs a value"
    ) -> Self {
        Self(name, placeholder, required: required, requirement: requirement) { $0.isEmpty ? nil : $0 }
    }
}

extension Option where Value == Int {
    /// A whole number within `range`.
    package init(_ name: String, _ placeholder: String, range: ClosedRange<Int>) {
        self.init(name, placeholder, requirement: "must be a number from \(range.lowerBound) to \(range.upperBound)") {
            Int($0).flatMap { range.contains($0) ? $0 : nil }
        }
    }
}
