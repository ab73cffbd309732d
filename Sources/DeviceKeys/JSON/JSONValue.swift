/// An immutable JSON value (RFC 8259) in the I-JSON subset (RFC 7493) that RFC 8785 canonicalises.
///
/// Numbers are IEEE 754 doubles, exactly as RFC 8785 §3.2.2.3 and ECMAScript treat them; objects are
/// dictionaries because I-JSON forbids duplicate member names and JCS orders members itself.
public indirect enum JSONValue: Sendable, Hashable {
    /// `null`.
    case null
    /// `true` or `false`.
    case bool(Bool)
    /// A number; the canonicaliser refuses NaN and ±Infinity.
    case number(Double)
    /// A string.
    case string(String)
    /// An array, order kept.
    case array([JSONValue])
    /// An object; member names are unique.
    case object([String: JSONValue])

    /// Member lookup on an object; `nil` for other kinds or a missing member.
    public subscript(member: String) -> JSONValue? {
        guard case .object(let members) = self else { return nil }
        return members[member]
    }

    /// The string payload, if this is a string.
    public var stringValue: String? {
        guard case .string(let text) = self else { return nil }
        return text
    }

    /// The number payload, if this is a number.
    public var numberValue: Double? {
        guard case .number(let number) = self else { return nil }
        return number
    }

    /// The members, if this is an object.
    public var objectValue: [String: JSONValue]? {
        guard case .object(let members) = self else { return nil }
        return members
    }

    /// The elements, if this is an array.
    public var arrayValue: [JSONValue]? {
        guard case .array(let elements) = self else { return nil }
        return elements
    }
}
