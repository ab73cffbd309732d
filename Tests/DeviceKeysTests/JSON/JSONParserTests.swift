import Testing

@testable import DeviceKeys

@Suite("JSONParser: strict RFC 8259 / I-JSON parsing")
struct JSONParserTests {
    @Test("parses every kind of value")
    func parsesValues() throws {
        let value = try JSONParser.parse(
            utf8(#" {"a": [1, -2.5e3, true, false, null], "b": "x\u00e9\ud83d\ude00\n"} "#))
        #expect(
            value
                == .object([
                    "a": .array([.number(1), .number(-2500), .bool(true), .bool(false), .null]),
                    "b": .string("xé😀\n"),
                ]))
    }

    @Test("refuses a duplicate member name (RFC 7493 §2.3)")
    func duplicateName() {
        #expect(throws: DeviceKeyError(.duplicateMemberName, "")) { try JSONParser.parse(utf8(#"{"a":1,"a":2}"#)) }
    }

    @Test("refuses a number that overflows a double")
    func overflow() {
        #expect(throws: DeviceKeyError(.nonFiniteNumber, "")) { try JSONParser.parse(utf8("1e400")) }
    }

    @Test(
        "refuses malformed input",
        arguments: [
            "", " ", "{", "[1,]", "{\"a\" 1}", "{\"a\":1,}", "01", "1.", "1e", "-", "+1", "NaN", "tru", "\"abc",
            "\"\\x\"", "\"\\u12\"", "\"\u{01}\"", "\"\\ud800\"", "\"\\ud800\\u0041\"", "\"\\udc00\"", "1 2", "{1:2}",
            "[1 2]", "{\"a\":1 \"b\":2}",
        ])
    func malformed(text: String) {
        #expect(throws: DeviceKeyError(.invalidJSON, "")) { try JSONParser.parse(utf8(text)) }
    }

    @Test("refuses invalid UTF-8 inside a string")
    func invalidUTF8() {
        #expect(throws: DeviceKeyError(.invalidJSON, "")) { try JSONParser.parse([0x22, 0xC3, 0x28, 0x22]) }
    }

    @Test("refuses nesting deeper than maxDepth, accepts exactly maxDepth")
    func depth() throws {
        _ = try JSONParser.parse(utf8("[[[1]]]"), maxDepth: 3)
        #expect(throws: DeviceKeyError(.invalidJSON, "")) { try JSONParser.parse(utf8("[[[[1]]]]"), maxDepth: 3) }
        #expect(throws: DeviceKeyError(.invalidJSON, "")) {
            try JSONParser.parse(utf8(#"{"a":{"b":{}}}"#), maxDepth: 2)
        }
    }

    @Test("a deeply nested hostile input gives an error, not a stack overflow")
    func hostileDepth() {
        let deep = String(repeating: "[", count: 100_000)
        #expect(throws: DeviceKeyError(.invalidJSON, "")) { try JSONParser.parse(utf8(deep)) }
    }

    @Test("every prefix of a valid document is refused with a typed error")
    func prefixes() {
        let document = utf8(#"{"type":"transfer","amount":{"value":"200.00","currency":"EUR"},"to":["X",1.5,null]}"#)
        for length in 0..<document.count {
            #expect(throws: DeviceKeyError.self) { try JSONParser.parse(Array(document.prefix(length))) }
        }
    }
}
