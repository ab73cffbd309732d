import Testing

@testable import JSON

@Suite("JSONValueDecoder: Decodable from a parsed JSONValue")
struct JSONValueDecoderTests {
    struct Login: Decodable, Equatable {
        let clientID: String
        let remember: Bool?
        let attempts: Int
        let scopes: [String]

        enum CodingKeys: String, CodingKey {
            case clientID = "client_id"
            case remember, attempts, scopes
        }
    }

    struct Envelope: Decodable, Equatable {
        let action: JSONValue
        let inner: Inner
        struct Inner: Decodable, Equatable { let value: Double }
    }

    static func decode<T: Decodable>(_ type: T.Type, _ text: String) throws -> T {
        try JSONValueDecoder().decode(type, from: try JSONValue(parsing: Array(text.utf8)))
    }

    /// The error's case and coding path, for comparing.
    static func describe(_ error: any Error) -> String {
        guard let error = error as? DecodingError else { return "other" }
        switch error {
        case .typeMismatch(_, let context): return "typeMismatch@" + path(context)
        case .valueNotFound(_, let context): return "valueNotFound@" + path(context)
        case .keyNotFound(let key, let context): return "keyNotFound(\(key.stringValue))@" + path(context)
        case .dataCorrupted(let context): return "dataCorrupted@" + path(context)
        @unknown default: return "unknown"
        }
    }

    static func path(_ context: DecodingError.Context) -> String {
        context.codingPath.map(\.stringValue).joined(separator: ".")
    }

    @Test("decodes a struct with strings, booleans, integers, optionals and arrays")
    func decodesStruct() throws {
        let login = try Self.decode(Login.self, #"{"client_id":"abc","attempts":3,"scopes":["a","b"],"x":null}"#)
        #expect(login == Login(clientID: "abc", remember: nil, attempts: 3, scopes: ["a", "b"]))
        let withNull = try Self.decode(Login.self, #"{"client_id":"abc","remember":null,"attempts":0,"scopes":[]}"#)
        #expect(withNull.remember == nil)
    }

    @Test("takes a JSONValue member as parsed: member order and number text kept")
    func keepsJSONValue() throws {
        let envelope = try Self.decode(Envelope.self, #"{"action":{"z":1.50,"a":[true]},"inner":{"value":2}}"#)
        #expect(
            envelope.action
                == .object([
                    JSONMember(key: "z", value: .number("1.50")), JSONMember(key: "a", value: .array([.bool(true)])),
                ]))
        #expect(envelope.inner.value == 2)
        #expect(try Self.decode(JSONValue.self, "null") == .null)
        #expect(try Self.decode([JSONValue].self, "[null,1e2]") == [.null, .number("1e2")])
    }

    @Test("integers: exact values of fractions and exponents, range checked per type")
    func integers() throws {
        #expect(try Self.decode(Int.self, "-0") == 0)
        #expect(try Self.decode(Int.self, "12.0") == 12)
        #expect(try Self.decode(Int.self, "1.2e1") == 12)
        #expect(try Self.decode(Int.self, "1200E-2") == 12)
        #expect(try Self.decode(Int.self, "0.0e99999999999999999999") == 0)
        #expect(try Self.decode(UInt8.self, "255") == 255)
        #expect(try Self.decode(Int8.self, "-128") == -128)
        #expect(try Self.decode(Int64.self, "9223372036854775807") == Int64.max)
        #expect(try Self.decode(UInt64.self, "18446744073709551615") == UInt64.max)
        #expect(try Self.decode(Int64.self, "-9223372036854775808") == Int64.min)
        // Exact, not through a Double: 2^53 + 1 survives.
        #expect(try Self.decode(Int64.self, "9007199254740993.0") == 9_007_199_254_740_993)
        for (text, type) in [
            ("1.5", Int.self as any Decodable.Type), ("1e-1", Int.self), ("256", UInt8.self), ("-1", UInt.self),
            ("-129", Int8.self), ("9223372036854775808", Int64.self), ("1e19", Int64.self),
            ("18446744073709551616", UInt64.self), ("1e99999999999999999999", Int.self),
        ] {
            #expect(throws: DecodingError.self, "\(text) as \(type)") {
                _ = try JSONValueDecoder().decode(type, from: try JSONValue(parsing: Array(text.utf8)))
            }
        }
    }

    @Test("floating point: finite values only")
    func floatingPoint() throws {
        #expect(try Self.decode(Double.self, "-2.5e3") == -2500)
        #expect(try Self.decode(Float.self, "0.5") == 0.5)
        #expect(try Self.decode(Double.self, "9007199254740993") == 9_007_199_254_740_992)
        #expect(throws: DecodingError.self) { try Self.decode(Double.self, "1e400") }
        #expect(throws: DecodingError.self) { try Self.decode(Float.self, "1e39") }
    }

    @Test("dictionaries keep every member; nested containers and super decoders work")
    func containers() throws {
        #expect(try Self.decode([String: Int].self, #"{"a":1,"b":2}"#) == ["a": 1, "b": 2])
        #expect(try Self.decode([[Bool?]].self, "[[true,null],[]]") == [[true, nil], []])
        struct Nested: Decodable, Equatable {
            let first: String
            let count: Int
            init(from decoder: any Decoder) throws {
                let outer = try decoder.container(keyedBy: Key.self)
                var list = try outer.nestedUnkeyedContainer(forKey: .list)
                #expect(list.count == 2)
                #expect(try list.decodeNil() == false)
                first = try list.decode(String.self)
                #expect(try list.decodeNil())
                #expect(list.isAtEnd)
                let inner = try outer.nestedContainer(keyedBy: Key.self, forKey: .inner)
                count = try inner.decode(Int.self, forKey: .count)
                #expect(inner.allKeys.map(\.stringValue) == ["count"])
                #expect(outer.contains(.list) && !outer.contains(.missing))
                #expect(try outer.superDecoder(forKey: .missing).singleValueContainer().decodeNil())
            }
            enum Key: String, CodingKey { case list, inner, count, missing }
        }
        let nested = try Self.decode(Nested.self, #"{"list":["x",null],"inner":{"count":7}}"#)
        #expect(nested.first == "x" && nested.count == 7)
    }

    @Test("errors are DecodingErrors with the coding path")
    func errors() {
        let cases: [(String, String)] = [
            (#"{"client_id":1,"attempts":3,"scopes":[]}"#, "typeMismatch@client_id"),
            (#"{"attempts":3,"scopes":[]}"#, "keyNotFound(client_id)@"),
            (#"{"client_id":null,"attempts":3,"scopes":[]}"#, "valueNotFound@client_id"),
            (#"{"client_id":"a","attempts":3,"scopes":["x",2]}"#, "typeMismatch@scopes.Index 1"),
            (#"{"client_id":"a","attempts":3.5,"scopes":[]}"#, "dataCorrupted@attempts"),
            (#"{"client_id":"a","attempts":3,"scopes":null}"#, "valueNotFound@scopes"),
            (#"{"client_id":"a","attempts":3,"scopes":{}}"#, "typeMismatch@scopes"),
            (#"{"client_id":"a","remember":"yes","attempts":3,"scopes":[]}"#, "typeMismatch@remember"),
            (#"{"client_id":"a","remember":null,"attempts":1e400,"scopes":[]}"#, "dataCorrupted@attempts"),
            ("[]", "typeMismatch@"),
            ("null", "valueNotFound@"),
        ]
        for (text, expected) in cases {
            do {
                _ = try Self.decode(Login.self, text)
                Issue.record("\(text) decoded")
            } catch {
                #expect(Self.describe(error) == expected, "\(text): \(error)")
            }
        }
    }

    @Test("an unkeyed container at its end reports valueNotFound at the next index")
    func unkeyedAtEnd() {
        struct Pair: Decodable {
            init(from decoder: any Decoder) throws {
                var list = try decoder.unkeyedContainer()
                _ = try list.decode(Int.self)
                _ = try list.decode(Int.self)
            }
        }
        do {
            _ = try Self.decode(Pair.self, "[1]")
            Issue.record("decoded")
        } catch {
            #expect(Self.describe(error) == "valueNotFound@Index 1")
        }
    }
}
