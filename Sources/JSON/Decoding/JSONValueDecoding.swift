/// The `Decoder` over one `JSONValue`, and its single-value container: what `JSONValueDecoder` hands to
/// `init(from:)`, and what nested containers hand on.
struct JSONValueDecoding: Decoder, SingleValueDecodingContainer {
    let value: JSONValue
    let codingPath: [any CodingKey]
    let sendableUserInfo: [CodingUserInfoKey: any Sendable]

    var userInfo: [CodingUserInfoKey: Any] { sendableUserInfo }

    init(_ value: JSONValue, codingPath: [any CodingKey], userInfo: [CodingUserInfoKey: any Sendable]) {
        self.value = value
        self.codingPath = codingPath
        self.sendableUserInfo = userInfo
    }

    /// The decoder of a value found under `key`.
    func child(_ value: JSONValue, key: any CodingKey) -> JSONValueDecoding {
        JSONValueDecoding(value, codingPath: codingPath + [key], userInfo: sendableUserInfo)
    }

    // MARK: Decoder

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        guard case .object(let members) = value else {
            throw JSONDecodingErrors.container([String: Any].self, "keyed decoding container", value, codingPath)
        }
        return KeyedDecodingContainer(JSONKeyedDecodingContainer<Key>(members, decoder: self))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        guard case .array(let elements) = value else {
            throw JSONDecodingErrors.container([Any].self, "unkeyed decoding container", value, codingPath)
        }
        return JSONUnkeyedDecodingContainer(elements, decoder: self)
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer { self }

    // MARK: SingleValueDecodingContainer

    func decodeNil() -> Bool { value == .null }

    func decode(_ type: Bool.Type) throws -> Bool {
        // `JSONDecoder` calls a null here a type mismatch, where other scalars say value not found.
        guard case .bool(let flag) = value else { throw JSONDecodingErrors.typeMismatch(type, value, codingPath) }
        return flag
    }

    func decode(_ type: String.Type) throws -> String {
        guard case .string(let text) = value else { throw JSONDecodingErrors.mismatch(type, value, codingPath) }
        return text
    }

    func decode(_ type: Double.Type) throws -> Double { try floatingPoint(type) }
    func decode(_ type: Float.Type) throws -> Float { try floatingPoint(type) }
    func decode(_ type: Int.Type) throws -> Int { try integer(type) }
    func decode(_ type: Int8.Type) throws -> Int8 { try integer(type) }
    func decode(_ type: Int16.Type) throws -> Int16 { try integer(type) }
    func decode(_ type: Int32.Type) throws -> Int32 { try integer(type) }
    func decode(_ type: Int64.Type) throws -> Int64 { try integer(type) }
    func decode(_ type: UInt.Type) throws -> UInt { try integer(type) }
    func decode(_ type: UInt8.Type) throws -> UInt8 { try integer(type) }
    func decode(_ type: UInt16.Type) throws -> UInt16 { try integer(type) }
    func decode(_ type: UInt32.Type) throws -> UInt32 { try integer(type) }
    func decode(_ type: UInt64.Type) throws -> UInt64 { try integer(type) }

    func decode<T: Decodable>(_ type: T.Type) throws -> T {
        // A `JSONValue` is taken as parsed: member order and number text kept, nothing rebuilt.
        if T.self == JSONValue.self, let same = value as? T { return same }
        return try T(from: self)
    }

    // MARK: numbers

    private func integer<T: FixedWidthInteger>(_ type: T.Type) throws -> T {
        guard case .number(let text) = value else { throw JSONDecodingErrors.mismatch(type, value, codingPath) }
        guard let integer = JSONNumberText.exactInteger(text, as: type) else {
            throw JSONDecodingErrors.doesNotFit(text, type, codingPath)
        }
        return integer
    }

    private func floatingPoint<T: BinaryFloatingPoint & LosslessStringConvertible>(_ type: T.Type) throws -> T {
        guard case .number(let text) = value else { throw JSONDecodingErrors.mismatch(type, value, codingPath) }
        // The parser checked the RFC 8259 §6 grammar, which Swift's conversion accepts; out of range is infinite.
        guard let number = T(text), number.isFinite else {
            throw JSONDecodingErrors.doesNotFit(text, type, codingPath)
        }
        return number
    }
}
