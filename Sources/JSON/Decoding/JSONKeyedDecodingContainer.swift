/// The members of a JSON object as a keyed container. Names are unique (the parser refuses duplicates,
/// RFC 7493 §2.3), so a name finds at most one member.
struct JSONKeyedDecodingContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
    private let members: [JSONMember]
    /// An index by name for larger objects; small ones (every object passkeyd reads) are searched in order.
    private let index: [String: Int]?
    private let decoder: JSONValueDecoding

    var codingPath: [any CodingKey] { decoder.codingPath }

    init(_ members: [JSONMember], decoder: JSONValueDecoding) {
        self.members = members
        self.decoder = decoder
        if members.count > 16 {
            var index: [String: Int] = [:]
            index.reserveCapacity(members.count)
            for (position, member) in members.enumerated() { index[member.key] = position }
            self.index = index
        } else {
            self.index = nil
        }
    }

    var allKeys: [Key] { members.compactMap { Key(stringValue: $0.key) } }

    func contains(_ key: Key) -> Bool { find(key) != nil }

    func decodeNil(forKey key: Key) throws -> Bool { try value(for: key) == .null }

    func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool { try child(key).decode(type) }
    func decode(_ type: String.Type, forKey key: Key) throws -> String { try child(key).decode(type) }
    func decode(_ type: Double.Type, forKey key: Key) throws -> Double { try child(key).decode(type) }
    func decode(_ type: Float.Type, forKey key: Key) throws -> Float { try child(key).decode(type) }
    func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try child(key).decode(type) }
    func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 { try child(key).decode(type) }
    func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 { try child(key).decode(type) }
    func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 { try child(key).decode(type) }
    func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { try child(key).decode(type) }
    func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt { try child(key).decode(type) }
    func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 { try child(key).decode(type) }
    func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 { try child(key).decode(type) }
    func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 { try child(key).decode(type) }
    func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 { try child(key).decode(type) }

    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        try child(key).decode(type)
    }

    func nestedContainer<NestedKey: CodingKey>(
        keyedBy type: NestedKey.Type, forKey key: Key
    ) throws -> KeyedDecodingContainer<NestedKey> {
        try child(key).container(keyedBy: type)
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        try child(key).unkeyedContainer()
    }

    func superDecoder() throws -> any Decoder {
        decoder.child(find(JSONIndexKey.superKey.stringValue) ?? .null, key: JSONIndexKey.superKey)
    }

    func superDecoder(forKey key: Key) throws -> any Decoder {
        decoder.child(find(key) ?? .null, key: key)
    }

    // MARK: lookup

    private func child(_ key: Key) throws -> JSONValueDecoding {
        decoder.child(try value(for: key), key: key)
    }

    private func value(for key: Key) throws -> JSONValue {
        guard let value = find(key) else { throw JSONDecodingErrors.keyNotFound(key, codingPath) }
        return value
    }

    private func find(_ key: Key) -> JSONValue? { find(key.stringValue) }

    private func find(_ name: String) -> JSONValue? {
        if let index { return index[name].map { members[$0].value } }
        for member in members where member.key == name { return member.value }
        return nil
    }
}
