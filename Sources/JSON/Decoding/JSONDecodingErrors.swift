/// The `DecodingError`s of `JSONValueDecoder`, worded as `JSONDecoder` words them.
enum JSONDecodingErrors {
    /// A value of another JSON type where `type` was expected; `null` is a missing value (`valueNotFound`).
    static func mismatch(_ type: Any.Type, _ value: JSONValue, _ codingPath: [any CodingKey]) -> DecodingError {
        if value == .null {
            return DecodingError.valueNotFound(
                type,
                DecodingError.Context(
                    codingPath: codingPath,
                    debugDescription: "Cannot get value of type \(type) -- found null value instead"))
        }
        return typeMismatch(type, value, codingPath)
    }

    /// A value of another JSON type where a container was expected; `null` is a missing value.
    static func container(
        _ type: Any.Type, _ name: String, _ value: JSONValue, _ codingPath: [any CodingKey]
    ) -> DecodingError {
        if value == .null {
            return DecodingError.valueNotFound(
                type,
                DecodingError.Context(
                    codingPath: codingPath, debugDescription: "Cannot get \(name) -- found null value instead"))
        }
        return typeMismatch(type, value, codingPath)
    }

    /// A value of another JSON type where `type` was expected.
    static func typeMismatch(_ type: Any.Type, _ value: JSONValue, _ codingPath: [any CodingKey]) -> DecodingError {
        DecodingError.typeMismatch(
            type,
            DecodingError.Context(
                codingPath: codingPath,
                debugDescription: "Expected to decode \(type) but found \(describe(value)) instead."))
    }

    /// A number `type` cannot hold (out of range, not an integer, not finite). `JSONDecoder` gives this case with
    /// an empty coding path; the path is given here, which says where the number was.
    static func doesNotFit(_ text: String, _ type: Any.Type, _ codingPath: [any CodingKey]) -> DecodingError {
        DecodingError.dataCorrupted(
            DecodingError.Context(
                codingPath: codingPath, debugDescription: "Parsed JSON number <\(text)> does not fit in \(type)."))
    }

    /// A member `key` the object does not have.
    static func keyNotFound(_ key: any CodingKey, _ codingPath: [any CodingKey]) -> DecodingError {
        DecodingError.keyNotFound(
            key,
            DecodingError.Context(
                codingPath: codingPath,
                debugDescription: "No value associated with key \(key) (\"\(key.stringValue)\")."))
    }

    /// What `value` is, for messages.
    static func describe(_ value: JSONValue) -> String {
        switch value {
        case .string: "a string"
        case .number: "number"
        case .bool: "bool"
        case .null: "null"
        case .array: "an array"
        case .object: "a dictionary"
        }
    }
}
