import Testing

@testable import JSON

@Suite("JSONWriter: compact output, RFC 8785 string form")
struct JSONWriterTests {
    static func written(_ value: JSONValue) -> String {
        var output: [UInt8] = []
        JSONWriter.append(value, to: &output)
        return String(decoding: output, as: UTF8.self)
    }

    @Test("members in order, numbers as their text, no whitespace")
    func compact() {
        let value: JSONValue = ["z": .number("1.50"), "a": [true, nil, "x"], "o": .object([])]
        #expect(Self.written(value) == #"{"z":1.50,"a":[true,null,"x"],"o":{}}"#)
        #expect(Self.written(.array([])) == "[]")
    }

    @Test("strings: the five short escapes, other controls as lower-case \\u00xx, '/' and non-ASCII as is")
    func strings() {
        var output: [UInt8] = []
        JSONWriter.appendString("\u{8}\u{9}\u{A}\u{C}\u{D}\u{1F}\u{0}\"\\/\u{7F}é😀", to: &output)
        #expect(String(decoding: output, as: UTF8.self) == #""\b\t\n\f\r\u001f\u0000\"\\/"# + "\u{7F}é😀\"")
    }

    @Test("what the writer writes, the parser reads back unchanged")
    func roundTrip() throws {
        let value: JSONValue = ["s": "\u{1}\u{8}q\"", "n": [.number("-0"), .number("1e+3")], "b": false]
        #expect(try JSONValue(parsing: value.serialized()) == value)
    }

    @Test("strings with nothing to escape are copied as is; one escape anywhere escapes only that byte")
    func plainStrings() {
        for (input, expected) in [
            ("", #""""#), ("eyJhbGciOiJFUzI1NiJ9.e30.sig-_", #""eyJhbGciOiJFUzI1NiJ9.e30.sig-_""#),
            ("/é😀\u{7F} ", "\"/é😀\u{7F} \""), ("abc\"", #""abc\"""#), ("\u{1F}abc", #""\u001fabc""#),
            ("ab\\c", #""ab\\c""#),
        ] {
            var output: [UInt8] = [UInt8(ascii: "x")]
            JSONWriter.appendString(input, to: &output)
            #expect(String(decoding: output, as: UTF8.self) == "x" + expected)
        }
    }
}
