import Foundation
import Testing

@testable import HTTP

@Suite("JSONValue parsing and serialisation")
struct JSONValueTests {
    static func parse(_ text: String) throws(HTTPError) -> JSONValue {
        try JSONValue(parsing: Array(text.utf8))
    }

    @Test("member order, number text and literals are kept")
    func parsesFaithfully() throws {
        let value = try Self.parse(#" {"z":1.50,"a":[true,false,null,-0,1e+3],"s":"x"} "#)
        #expect(value.objectMembers?.map(\.key) == ["z", "a", "s"])
        #expect(value["z"] == .number("1.50"))
        #expect(value["a"] == .array([.bool(true), .bool(false), .null, .number("-0"), .number("1e+3")]))
        #expect(
            String(decoding: value.serialized(), as: UTF8.self) == #"{"z":1.50,"a":[true,false,null,-0,1e+3],"s":"x"}"#)
        #expect(value["z"]?.doubleValue == 1.5)
        #expect(value["z"]?.intValue == nil)
        #expect(value["a"]?.arrayValue?.count == 5)
    }

    @Test("escapes and surrogate pairs decode; control characters are escaped on output")
    func escapes() throws {
        let value = try Self.parse(#""a\"\\\/\b\f\n\r\t\u00e9\ud83d\ude00""#)
        #expect(value == .string("a\"\\/\u{8}\u{c}\n\r\té😀"))
        let written = String(decoding: JSONValue.string("q\"\u{1}\n").serialized(), as: UTF8.self)
        #expect(written == #""q\"\u0001\n""#)
    }

    @Test(
        "malformed documents are refused",
        arguments: [
            "", "   ", "{", "[1,]", "{\"a\":1,}", "01", "1.", "-", "1e", "+1", ".5", "tru", "nul", "\"abc",
            "\"\\x\"", "\"\\u12\"", "\"\\ud800\"", "\"\\udc00\"", "\"\\ud800\\u0041\"", "{\"a\" 1}", "{1:2}",
            "[1 2]", "1 2", "{\"a\":1,\"a\":2}", "\"tab\there\"", "\u{FEFF}{}", "NaN",
        ])
    func refusesMalformed(text: String) {
        #expect(throws: HTTPError(.malformedJSON, "")) { try Self.parse(text) }
    }

    @Test("invalid UTF-8 inside a string is refused, not repaired")
    func refusesInvalidUTF8() {
        #expect(throws: HTTPError(.malformedJSON, "")) {
            try JSONValue(parsing: [0x22, 0xC3, 0x28, 0x22])
        }
    }

    @Test("nesting is bounded")
    func depthLimit() throws {
        let deep =
            String(repeating: "[", count: JSONParser.maximumDepth)
            + String(repeating: "]", count: JSONParser.maximumDepth)
        _ = try Self.parse(deep)
        let tooDeep = "[" + deep + "]"
        #expect(throws: HTTPError(.malformedJSON, "")) { try Self.parse(tooDeep) }
    }

    @Test("literals build values; non-finite doubles become null")
    func literals() {
        let value: JSONValue = ["n": 3, "d": 2.5, "b": false, "s": "x", "z": nil, "a": [1]]
        #expect(value["n"]?.intValue == 3)
        #expect(value["d"] == .number("2.5"))
        #expect(JSONValue(Double.infinity) == .null)
        #expect(value.objectValue?.count == 6)
        #expect(value["missing"] == nil)
        #expect(JSONValue.string("x")["k"] == nil)
    }

    @Test("Codable round trip through JSONEncoder and JSONDecoder")
    func codable() throws {
        let value: JSONValue = ["a": [1, 2.5, "x", true, nil], "o": ["k": "v"]]
        let data = try JSONEncoder().encode(value)
        let decoded = try JSONDecoder().decode(JSONValue.self, from: data)
        #expect(decoded == value)
    }
}
