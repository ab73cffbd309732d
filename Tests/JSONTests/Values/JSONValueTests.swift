import Foundation
import Testing

@testable import JSON

@Suite("JSONValue parsing and serialisation")
struct JSONValueTests {
    static func parse(_ text: String) throws(JSONError) -> JSONValue {
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
        #expect(value.objectValue?["s"] == .string("x"))
        #expect(value["s"]?.stringValue == "x")
        #expect(value["s"]?.doubleValue == nil)
        #expect(value["a"]?.arrayValue?.first?.boolValue == true)
        #expect(value["a"]?.arrayValue?[2].isNull == true)
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
}
