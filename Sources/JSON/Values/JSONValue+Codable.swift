/// `JSONValue` inside `Codable` types, e.g. a free-form `action` object in a request or response struct.
///
/// Through `Codable` numbers travel as `Int64` or `Double` and object member order follows the coder;
/// use `JSONValue(parsing:)` and `serialized()` when the exact text matters.
extension JSONValue: Codable {
    /// Decodes any JSON value.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let flag = try? container.decode(Bool.self) {
            self = .bool(flag)
        } else if let integer = try? container.decode(Int64.self) {
            self = .number(String(integer))
        } else if let double = try? container.decode(Double.self) {
            self = JSONValue(double)
        } else if let string = try? container.decode(String.self) {
            self = .string(string)
        } else if let elements = try? container.decode([JSONValue].self) {
            self = .array(elements)
        } else {
            let dictionary = try container.decode([String: JSONValue].self)
            self = .object(dictionary.sorted { $0.key < $1.key }.map { JSONMember(key: $0.key, value: $0.value) })
        }
    }

    /// Encodes the value; object members in order.
    public func encode(to encoder: any Encoder) throws {
        switch self {
        case .null:
            var container = encoder.singleValueContainer()
            try container.encodeNil()
        case .bool(let flag):
            var container = encoder.singleValueContainer()
            try container.encode(flag)
        case .string(let string):
            var container = encoder.singleValueContainer()
            try container.encode(string)
        case .number(let text):
            var container = encoder.singleValueContainer()
            if let integer = Int64(text) {
                try container.encode(integer)
            } else {
                try container.encode(Double(text) ?? 0)
            }
        case .array(let elements):
            var container = encoder.unkeyedContainer()
            for element in elements {
                try container.encode(element)
            }
        case .object(let members):
            var container = encoder.container(keyedBy: MemberKey.self)
            for member in members {
                try container.encode(member.value, forKey: MemberKey(member.key))
            }
        }
    }

    /// A coding key for an arbitrary member name.
    private struct MemberKey: CodingKey {
        let stringValue: String
        var intValue: Int? { nil }
        init(_ name: String) { stringValue = name }
        init?(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }
}
