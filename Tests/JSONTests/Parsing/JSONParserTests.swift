import Testing

@testable import JSON

@Suite("JSONParser: strict RFC 8259 / I-JSON parsing")
struct JSONParserTests {
    static func parse(_ text: String, maximumDepth: Int = JSONValue.defaultMaximumDepth) throws(JSONError) -> JSONValue
    {
        try JSONValue(parsing: Array(text.utf8), maximumDepth: maximumDepth)
    }

    @Test("parses every kind of value")
    func parsesValues() throws {
        let value = try Self.parse(#" {"a": [1, -2.5e3, true, false, null], "b": "x\u00e9\ud83d\ude00\n"} "#)
        #expect(
            value
                == .object([
                    JSONMember(
                        key: "a", value: .array([.number("1"), .number("-2.5e3"), .bool(true), .bool(false), .null])),
                    JSONMember(key: "b", value: .string("xé😀\n")),
                ]))
    }

    @Test("refuses a duplicate member name (RFC 7493 §2.3)")
    func duplicateName() {
        #expect(throws: JSONError(.duplicateMemberName, "")) { try Self.parse(#"{"a":1,"a":2}"#) }
        #expect(throws: JSONError(.duplicateMemberName, "")) { try Self.parse(#"[{"b":{"a":1,"a":2}}]"#) }
    }

    /// An object of `count` members named m0, m1, …, with member `repeated` named like member `original` when set.
    static func object(_ count: Int, repeating original: Int? = nil, at repeated: Int? = nil) -> String {
        let names = (0..<count).map { index in index == repeated ? "m\(original ?? 0)" : "m\(index)" }
        return "{" + names.map { "\"\($0)\":0" }.joined(separator: ",") + "}"
    }

    @Test("finds a repeated name below, at and beyond the pairwise limit, wherever the two members lie")
    func duplicateNameAcrossThePairwiseLimit() throws {
        let limit = JSONParser.pairwiseNameLimit
        for count in [2, limit - 1, limit, limit + 1, limit + 2, 4 * limit] {
            if case .object(let members) = try Self.parse(Self.object(count)) {
                #expect(members.count == count)
            } else {
                Issue.record("\(count) members did not parse as an object")
            }
            for (original, repeated) in [(0, 1), (0, count - 1), (count - 2, count - 1), (count / 2, count - 1)]
            where original < repeated {
                #expect(throws: JSONError(.duplicateMemberName, ""), "\(count) members, \(original) and \(repeated)") {
                    try Self.parse(Self.object(count, repeating: original, at: repeated))
                }
            }
        }
    }

    @Test("compares names as strings (canonically equivalent spellings are one name) on both sides of the limit")
    func duplicateNameCanonicalEquivalence() {
        let padding = (0..<JSONParser.pairwiseNameLimit).map { "\"p\($0)\":0," }.joined()
        for prefix in ["", padding] {
            #expect(throws: JSONError(.duplicateMemberName, "")) {
                try Self.parse("{" + prefix + #""\u00e9":1,"e\u0301":2}"#)
            }
        }
    }

    @Test("keeps a number too large for a double as text; only its double value is refused (by JCS)")
    func overflowKeptAsText() throws {
        #expect(try Self.parse("1e400") == .number("1e400"))
    }

    @Test(
        "refuses malformed input",
        arguments: [
            "", " ", "{", "[1,]", "{\"a\" 1}", "{\"a\":1,}", "01", "1.", "1e", "-", "+1", ".5", "NaN", "tru", "nul",
            "\"abc", "\"\\x\"", "\"\\u12\"", "\"\u{01}\"", "\"tab\there\"", "\"\\ud800\"", "\"\\ud800\\u0041\"",
            "\"\\udc00\"", "1 2", "{1:2}", "[1 2]", "{\"a\":1 \"b\":2}", "\u{FEFF}{}",
        ])
    func malformed(text: String) {
        #expect(throws: JSONError(.invalidJSON, "")) { try Self.parse(text) }
    }

    @Test("refuses invalid UTF-8 inside a string, and does not repair it")
    func invalidUTF8() {
        #expect(throws: JSONError(.invalidJSON, "")) { try JSONValue(parsing: [0x22, 0xC3, 0x28, 0x22]) }
        #expect(throws: JSONError(.invalidJSON, "")) { try JSONValue(parsing: [0x22, 0x5C, 0x6E, 0xC3, 0x22]) }
    }

    @Test("an ASCII string is kept as it stands; one byte of 0x80 or above sends the string through validation")
    func asciiAndNonASCIIStrings() throws {
        let ascii = Array(#""https://example.com:8443/~a b""#.utf8)
        #expect(try JSONValue(parsing: ascii) == .string("https://example.com:8443/~a b"))
        // After a run of ASCII, a lone continuation byte, a truncated sequence, an overlong form and a surrogate.
        for tail: [UInt8] in [[0x80], [0xC3], [0xC0, 0xAF], [0xED, 0xA0, 0x80], [0xFF]] {
            #expect(throws: JSONError(.invalidJSON, ""), "\(tail)") {
                try JSONValue(parsing: [0x22, 0x61, 0x62] + tail + [0x22])
            }
        }
        #expect(try JSONValue(parsing: [0x22, 0x61, 0xC3, 0xA9, 0x22]) == .string("aé"))
    }

    @Test("refuses nesting deeper than maximumDepth, accepts exactly maximumDepth")
    func depth() throws {
        _ = try Self.parse("[[[1]]]", maximumDepth: 3)
        #expect(throws: JSONError(.nestingTooDeep, "")) { try Self.parse("[[[[1]]]]", maximumDepth: 3) }
        #expect(throws: JSONError(.nestingTooDeep, "")) { try Self.parse(#"{"a":{"b":{}}}"#, maximumDepth: 2) }
    }

    @Test("the default nesting limit is bounded")
    func defaultDepth() throws {
        let limit = JSONValue.defaultMaximumDepth
        let deep = String(repeating: "[", count: limit) + String(repeating: "]", count: limit)
        _ = try Self.parse(deep)
        #expect(throws: JSONError(.nestingTooDeep, "")) { try Self.parse("[" + deep + "]") }
    }

    @Test("a deeply nested hostile input gives an error, not a stack overflow")
    func hostileDepth() {
        let deep = String(repeating: "[", count: 100_000)
        #expect(throws: JSONError(.nestingTooDeep, "")) { try Self.parse(deep) }
    }

    @Test("every prefix of a valid document is refused with a typed error")
    func prefixes() {
        let document = Array(
            #"{"type":"transfer","amount":{"value":"200.00","currency":"EUR"},"to":["X",1.5,null,"\u00e9"]}"#.utf8)
        for length in 0..<document.count {
            #expect(throws: JSONError.self) { try JSONValue(parsing: Array(document.prefix(length))) }
        }
    }

    @Test("a flipped byte at every offset gives a value or a typed error, never a trap")
    func flippedBytes() {
        let document = Array(#"{"a":[1,-2.5e3,true,null],"b":"x\u00e9"}"#.utf8)
        for offset in document.indices {
            var mutated = document
            mutated[offset] ^= 0xFF
            _ = try? JSONValue(parsing: mutated)
        }
    }
}
