/// A parsed JSON value (RFC 8259) that keeps what `JSONSerialization` loses: object member order,
/// the exact text of numbers, and the difference between `true` and `1`.
///
/// The one JSON model of passkeyd: request and response bodies (HTTP), actions and challenge documents
/// (DeviceKeys, through `JCS`), JOSE objects (Tokens). Numbers stay text until someone asks for a value,
/// so nothing is rounded on the way through; `JCS` reads them as IEEE 754 doubles, as RFC 8785 requires.
public enum JSONValue: Sendable, Hashable {
    /// A string.
    case string(String)
    /// A number, kept in its textual form exactly as received (RFC 8259 §6 grammar).
    case number(String)
    /// `true` or `false`.
    case bool(Bool)
    /// `null`.
    case null
    /// An array.
    case array([JSONValue])
    /// An object, members in document order (names are unique: RFC 7493 §2.3).
    case object([JSONMember])

    /// The string, when this is a string.
    public var stringValue: String? {
        if case .string(let value) = self { return value }
        return nil
    }

    /// The boolean, when this is `true` or `false`.
    public var boolValue: Bool? {
        if case .bool(let value) = self { return value }
        return nil
    }

    /// The number as an `Int`, when this is a number written as an integer that fits.
    public var intValue: Int? {
        if case .number(let text) = self { return Int(text) }
        return nil
    }

    /// The number as a `Double`, when this is a number.
    public var doubleValue: Double? {
        if case .number(let text) = self { return Double(text) }
        return nil
    }

    /// The elements, when this is an array.
    public var arrayValue: [JSONValue]? {
        if case .array(let elements) = self { return elements }
        return nil
    }

    /// The members in order, when this is an object.
    public var objectMembers: [JSONMember]? {
        if case .object(let members) = self { return members }
        return nil
    }

    /// The members as a dictionary, when this is an object.
    public var objectValue: [String: JSONValue]? {
        guard case .object(let members) = self else { return nil }
        var dictionary: [String: JSONValue] = [:]
        dictionary.reserveCapacity(members.count)
        for member in members {
            dictionary[member.key] = member.value
        }
        return dictionary
    }

    /// Whether this is `null`.
    public var isNull: Bool { self == .null }

    /// The value of member `key`, when this is an object that has it.
    public subscript(key: String) -> JSONValue? {
        guard case .object(let members) = self else { return nil }
        return members.first { $0.key == key }?.value
    }

    /// The nesting limit `init(parsing:)` applies unless told otherwise.
    public static let defaultMaximumDepth = 64

    /// Parses one JSON text (RFC 8259 §2), refusing anything RFC 7493 (I-JSON) forbids.
    /// - Parameter maximumDepth: deepest array/object nesting accepted (the top-level container is depth 1).
    /// - Throws: `.invalidJSON`, `.duplicateMemberName` or `.nestingTooDeep`.
    public init(parsing bytes: [UInt8], maximumDepth: Int = JSONValue.defaultMaximumDepth) throws(JSONError) {
        var parser = JSONParser(bytes, maximumDepth: maximumDepth)
        self = try parser.parseDocument()
    }

    /// The compact serialisation: members in order, numbers as their text, no insignificant whitespace.
    public func serialized() -> [UInt8] {
        var output: [UInt8] = []
        JSONWriter.append(self, to: &output)
        return output
    }
}
