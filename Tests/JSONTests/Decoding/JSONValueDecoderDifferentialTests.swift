import Foundation
import Testing

@testable import JSON

/// `JSONValueDecoder` against Foundation's `JSONDecoder` on the same documents: the same values, or the same
/// `DecodingError` case at the same coding path (`JSONDecoder` gives none for a number that does not fit). (Documents the parser refuses, e.g. duplicate names, are not
/// compared: `JSONDecoder` would read them, which is why it no longer reads untrusted JSON.)
@Suite("JSONValueDecoder: agrees with JSONDecoder")
struct JSONValueDecoderDifferentialTests {
    struct Claims: Decodable, Equatable {
        let iss: String
        let sub: String?
        let aud: [String]?
        let exp: Double
        let nbf: Double?
        let count: Int?
        let small: UInt8?
        let big: Int64?
        let unsigned: UInt32?
        let ratio: Float?
        let flags: [String: Bool]?
        let nested: [[Int]]?
        let inner: Inner?
        struct Inner: Decodable, Equatable {
            let name: String
            let tags: [String]
        }
    }

    enum Kind: String, Decodable, Equatable { case registration, authentication }

    struct Tagged: Decodable, Equatable {
        let kind: Kind
        let when: Date?
        let values: [Int8]
    }

    static let claimsDocuments: [String] = [
        #"{"iss":"a","exp":1}"#,
        #"{"iss":"a","exp":1.5,"sub":"s","aud":["x","y"],"nbf":-3e2}"#,
        #"{"iss":"a","exp":1,"count":12.0}"#,
        #"{"iss":"a","exp":1,"count":1.2e1}"#,
        #"{"iss":"a","exp":1,"count":1.25}"#,
        #"{"iss":"a","exp":1,"count":-0}"#,
        #"{"iss":"a","exp":1,"count":-0.0}"#,
        #"{"iss":"a","exp":1,"count":1e-2}"#,
        #"{"iss":"a","exp":1,"count":"1"}"#,
        #"{"iss":"a","exp":1,"count":true}"#,
        #"{"iss":"a","exp":1,"count":null}"#,
        #"{"iss":"a","exp":1,"small":255}"#,
        #"{"iss":"a","exp":1,"small":256}"#,
        #"{"iss":"a","exp":1,"small":-1}"#,
        #"{"iss":"a","exp":1,"big":9223372036854775807}"#,
        #"{"iss":"a","exp":1,"big":9223372036854775808}"#,
        #"{"iss":"a","exp":1,"big":-9223372036854775808}"#,
        #"{"iss":"a","exp":1,"unsigned":4294967295}"#,
        #"{"iss":"a","exp":1,"unsigned":4294967296}"#,
        #"{"iss":"a","exp":1,"ratio":0.1}"#,
        #"{"iss":"a","exp":1,"ratio":1e39}"#,
        #"{"iss":"a","exp":1e400}"#,
        #"{"iss":"a","exp":"1"}"#,
        #"{"iss":"a","exp":null}"#,
        #"{"iss":1,"exp":1}"#,
        #"{"exp":1}"#,
        #"{"iss":"a"}"#,
        #"{"iss":"a","exp":1,"aud":"x"}"#,
        #"{"iss":"a","exp":1,"aud":[1]}"#,
        #"{"iss":"a","exp":1,"aud":["x",null]}"#,
        #"{"iss":"a","exp":1,"aud":null}"#,
        #"{"iss":"a","exp":1,"flags":{"a":true,"b":false}}"#,
        #"{"iss":"a","exp":1,"flags":{"a":1}}"#,
        #"{"iss":"a","exp":1,"flags":[]}"#,
        #"{"iss":"a","exp":1,"nested":[[1,2],[],[3]]}"#,
        #"{"iss":"a","exp":1,"nested":[[1,2],[null]]}"#,
        #"{"iss":"a","exp":1,"nested":[1]}"#,
        #"{"iss":"a","exp":1,"inner":{"name":"n","tags":[]}}"#,
        #"{"iss":"a","exp":1,"inner":{"name":"n"}}"#,
        #"{"iss":"a","exp":1,"inner":{"name":"n","tags":"t"}}"#,
        #"{"iss":"a","exp":1,"inner":"x"}"#,
        #"{"iss":"a","exp":1,"inner":null}"#,
        #"{"iss":"\u00e9\ud83d\ude00\n","exp":1,"extra":[{"deep":[null]}]}"#,
        #"[]"#,
        #""x""#,
        #"null"#,
        #"1"#,
    ]

    static let taggedDocuments: [String] = [
        #"{"kind":"registration","values":[1,-2]}"#,
        #"{"kind":"authentication","values":[],"when":0}"#,
        #"{"kind":"authentication","values":[],"when":1.5e9}"#,
        #"{"kind":"other","values":[]}"#,
        #"{"kind":1,"values":[]}"#,
        #"{"kind":"registration","values":[128]}"#,
        #"{"kind":"registration","values":[1.0]}"#,
        #"{"kind":"registration","values":[null]}"#,
        #"{"kind":"registration","values":[],"when":"2020"}"#,
    ]

    static func compare<T: Decodable & Equatable>(_ type: T.Type, _ text: String) throws {
        let ours = Result { try JSONValueDecoder().decode(type, from: try JSONValue(parsing: Array(text.utf8))) }
        let foundation = Result { try JSONDecoder().decode(type, from: Data(text.utf8)) }
        switch (ours, foundation) {
        case (.success(let mine), .success(let theirs)):
            #expect(mine == theirs, "\(text)")
        case (.failure(let mine), .failure(let theirs)):
            // A number that does not fit is `dataCorrupted` in both; `JSONDecoder` leaves its coding path empty.
            var expected = JSONValueDecoderTests.describe(theirs)
            if expected == "dataCorrupted@", case .dataCorrupted = mine as? DecodingError {
                expected = JSONValueDecoderTests.describe(mine)
            }
            #expect(JSONValueDecoderTests.describe(mine) == expected, "\(text): ours \(mine), JSONDecoder \(theirs)")
        default:
            Issue.record("\(text): ours \(ours), JSONDecoder \(foundation)")
        }
    }

    @Test("the same values or the same error, on claims-shaped documents", arguments: claimsDocuments)
    func claims(_ text: String) throws {
        try Self.compare(Claims.self, text)
    }

    @Test("the same values or the same error with enums, Date and small integers", arguments: taggedDocuments)
    func tagged(_ text: String) throws {
        try Self.compare(Tagged.self, text)
    }

    @Test("the same values or the same error for top-level arrays, dictionaries and scalars")
    func topLevel() throws {
        for text in ["[]", #"["a","b"]"#, #"["a",1]"#, "[null]", "{}", "1", #""a""#, "null", "true"] {
            try Self.compare([String].self, text)
            try Self.compare([String: String].self, text)
            try Self.compare(String.self, text)
            try Self.compare(Bool.self, text)
            try Self.compare(String?.self, text)
        }
        for text in ["0", "-0", "1.0", "1e2", "1E+2", "100e-2", "1.5", "-1", "4294967296", "1e400", "-1e400", "\"1\""] {
            try Self.compare(Int.self, text)
            try Self.compare(UInt32.self, text)
            try Self.compare(Int64.self, text)
            try Self.compare(Double.self, text)
            try Self.compare(Float.self, text)
        }
    }
}
