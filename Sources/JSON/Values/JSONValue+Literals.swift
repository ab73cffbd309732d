extension JSONValue: ExpressibleByStringLiteral, ExpressibleByIntegerLiteral, ExpressibleByFloatLiteral,
    ExpressibleByBooleanLiteral, ExpressibleByNilLiteral, ExpressibleByArrayLiteral,
    ExpressibleByDictionaryLiteral
{
    /// A string value.
    public init(stringLiteral value: String) {
        self = .string(value)
    }

    /// A number value.
    public init(integerLiteral value: Int) {
        self = .number(String(value))
    }

    /// A number value; a non-finite `Double` has no JSON form and becomes `null`.
    public init(floatLiteral value: Double) {
        self = JSONValue(value)
    }

    /// A boolean value.
    public init(booleanLiteral value: Bool) {
        self = .bool(value)
    }

    /// `null`.
    public init(nilLiteral: ()) {
        self = .null
    }

    /// An array value.
    public init(arrayLiteral elements: JSONValue...) {
        self = .array(elements)
    }

    /// An object value, members in literal order.
    public init(dictionaryLiteral elements: (String, JSONValue)...) {
        self = .object(elements.map { JSONMember(key: $0.0, value: $0.1) })
    }

    /// A number from an integer.
    public init(_ value: Int) {
        self = .number(String(value))
    }

    /// A number from a `Double`; non-finite values have no JSON form and become `null`.
    public init(_ value: Double) {
        self = value.isFinite ? .number(String(value)) : .null
    }
}
