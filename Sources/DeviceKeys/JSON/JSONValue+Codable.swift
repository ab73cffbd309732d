/// `Codable` so request bodies decoded with `JSONDecoder` can carry a `JSONValue` member.
///
/// `JSONDecoder` cannot report duplicate member names; when the exact bytes are at hand prefer
/// `JSONParser.parse(_:)`, which refuses them.
extension JSONValue: Codable {
    private struct MemberKey: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    /// Decodes any JSON value. Booleans are tried before numbers so `true` never becomes `1`.
    public init(from decoder: any Decoder) throws {
        if let keyed = try? decoder.container(keyedBy: MemberKey.self) {
            var members: [String: JSONValue] = [:]
            for key in keyed.allKeys {
                members[key.stringValue] = try keyed.decode(JSONValue.self, forKey: key)
            }
            self = .object(members)
            return
        }
        if var unkeyed = try? decoder.unkeyedContainer() {
            var elements: [JSONValue] = []
            while !unkeyed.isAtEnd {
                elements.append(try unkeyed.decode(JSONValue.self))
            }
            self = .array(elements)
            return
        }
        let single = try decoder.singleValueContainer()
        if single.decodeNil() {
            self = .null
        } else if let flag = try? single.decode(Bool.self) {
            self = .bool(flag)
        } else if let number = try? single.decode(Double.self) {
            self = .number(number)
        } else {
            self = .string(try single.decode(String.self))
        }
    }

    /// Encodes the value with the encoder's own formatting (not canonical: use `JCS` for that).
    public func encode(to encoder: any Encoder) throws {
        switch self {
        case .null:
            var single = encoder.singleValueContainer()
            try single.encodeNil()
        case .bool(let flag):
            var single = encoder.singleValueContainer()
            try single.encode(flag)
        case .number(let number):
            var single = encoder.singleValueContainer()
            try single.encode(number)
        case .string(let text):
            var single = encoder.singleValueContainer()
            try single.encode(text)
        case .array(let elements):
            var unkeyed = encoder.unkeyedContainer()
            for element in elements { try unkeyed.encode(element) }
        case .object(let members):
            var keyed = encoder.container(keyedBy: MemberKey.self)
            for (name, value) in members { try keyed.encode(value, forKey: MemberKey(stringValue: name)) }
        }
    }
}
