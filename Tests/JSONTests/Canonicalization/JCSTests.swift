import Testing

@testable import JSON

@Suite("JCS: RFC 8785 canonicalisation")
struct JCSTests {
    static func parse(_ text: String) throws -> JSONValue { try JSONValue(parsing: Array(text.utf8)) }

    static func canonical(_ value: JSONValue) throws -> String {
        String(decoding: try JCS.canonicalBytes(value), as: UTF8.self)
    }

    /// RFC 8785 Appendix B: IEEE 754 bit patterns and their canonical serialisation.
    static let appendixB: [(UInt64, String)] = [
        (0x0000_0000_0000_0000, "0"),
        (0x8000_0000_0000_0000, "0"),
        (0x0000_0000_0000_0001, "5e-324"),
        (0x8000_0000_0000_0001, "-5e-324"),
        (0x7FEF_FFFF_FFFF_FFFF, "1.7976931348623157e+308"),
        (0xFFEF_FFFF_FFFF_FFFF, "-1.7976931348623157e+308"),
        (0x4340_0000_0000_0000, "9007199254740992"),
        (0xC340_0000_0000_0000, "-9007199254740992"),
        (0x4430_0000_0000_0000, "295147905179352830000"),
        (0x44B5_2D02_C7E1_4AF5, "9.999999999999997e+22"),
        (0x44B5_2D02_C7E1_4AF6, "1e+23"),
        (0x44B5_2D02_C7E1_4AF7, "1.0000000000000001e+23"),
        (0x444B_1AE4_D6E2_EF4E, "999999999999999700000"),
        (0x444B_1AE4_D6E2_EF4F, "999999999999999900000"),
        (0x444B_1AE4_D6E2_EF50, "1e+21"),
        (0x3EB0_C6F7_A0B5_ED8C, "9.999999999999997e-7"),
        (0x3EB0_C6F7_A0B5_ED8D, "0.000001"),
        (0x41B3_DE43_5555_5553, "333333333.3333332"),
        (0x41B3_DE43_5555_5554, "333333333.33333325"),
        (0x41B3_DE43_5555_5555, "333333333.3333333"),
        (0x41B3_DE43_5555_5556, "333333333.3333334"),
        (0x41B3_DE43_5555_5557, "333333333.33333343"),
        (0xBECB_F647_612F_3696, "-0.0000033333333333333333"),
        (0x4314_3FF3_C1CB_0959, "1424953923781206.2"),
    ]

    @Test("numbers serialise as RFC 8785 Appendix B says", arguments: appendixB)
    func appendixBNumbers(bits: UInt64, expected: String) throws {
        // The value as Swift writes it (shortest round-trip digits), which JCS must read back to the same double.
        #expect(try Self.canonical(JSONValue(Double(bitPattern: bits))) == expected)
        // ...and as the canonical text itself, which must be a fixed point.
        #expect(try Self.canonical(.number(expected)) == expected)
    }

    @Test(
        "numbers without a finite double value, or whose text is not JSON, are refused (RFC 8785 §3.2.2.3)",
        arguments: ["1e400", "-1e400", "NaN", "nan", "inf", "-Infinity", "0x1p3", "", "1.", "+1", " 1"])
    func nonFinite(text: String) {
        #expect(throws: JSONError(.nonFiniteNumber, "")) { try JCS.canonicalBytes(.array([.number(text)])) }
    }

    @Test("a parsed number that overflows a double is refused when canonicalised")
    func parsedOverflow() throws {
        let value = try Self.parse(#"{"amount":1e400}"#)
        #expect(throws: JSONError(.nonFiniteNumber, "")) { try JCS.canonicalBytes(value) }
    }

    @Test("an object built with a repeated member name is refused (RFC 7493 §2.3)")
    func duplicateNames() {
        let value: JSONValue = .object([
            JSONMember(key: "b", value: 1), JSONMember(key: "a", value: 2), JSONMember(key: "b", value: 3),
        ])
        #expect(throws: JSONError(.duplicateMemberName, "")) { try JCS.canonicalBytes(["x": value]) }
    }

    @Test(
        "more ECMAScript number forms",
        arguments: [
            (1.0, "1"), (-1.5, "-1.5"), (100.0, "100"), (1e20, "100000000000000000000"), (1e21, "1e+21"),
            (123e21, "1.23e+23"), (0.1, "0.1"), (1e-6, "0.000001"), (1e-7, "1e-7"), (1.5e-7, "1.5e-7"),
            (0.000123, "0.000123"), (4.5, "4.5"), (2e-3, "0.002"), (1e30, "1e+30"),
            (Double.leastNonzeroMagnitude, "5e-324"),
        ])
    func moreNumbers(value: Double, expected: String) throws {
        #expect(try Self.canonical(JSONValue(value)) == expected)
    }

    @Test(
        "number text is read as its double value",
        arguments: [
            ("1.0", "1"), ("-0", "0"), ("-0.0", "0"), ("1E2", "100"), ("4.50", "4.5"), ("0.1e1", "1"),
            ("9007199254740993", "9007199254740992"), ("1e-7", "1e-7"),
        ])
    func numberText(text: String, expected: String) throws {
        #expect(try Self.canonical(.number(text)) == expected)
    }

    @Test("RFC 8785 §3.2.2 example: the whole input/output pair")
    func section322Example() throws {
        let input = #"""
            {
              "numbers": [333333333.33333329, 1E30, 4.50, 2e-3, 0.000000000000000000000000001],
              "string": "\u20ac$\u000F\u000aA'\u0042\u0022\u005c\\\"\/",
              "literals": [null, true, false]
            }
            """#
        let expected =
            #"{"literals":[null,true,false],"numbers":[333333333.3333333,1e+30,4.5,0.002,1e-27],"#
            + #""string":"€$\u000f\nA'B\"\\\\\"/"}"#
        let output = try JCS.canonicalBytes(try Self.parse(input))
        #expect(String(decoding: output, as: UTF8.self) == expected)
    }

    @Test("RFC 8785 §3.2.3 example: members sorted by UTF-16 code units")
    func section323Sorting() throws {
        let input = #"""
            {
              "\u20ac": "Euro Sign",
              "\r": "Carriage Return",
              "\ufb33": "Hebrew Letter Dalet With Dagesh",
              "1": "One",
              "\ud83d\ude00": "Emoji: Grinning Face",
              "\u0080": "Control",
              "\u00f6": "Latin Small Letter O With Diaeresis"
            }
            """#
        let output = String(decoding: try JCS.canonicalBytes(try Self.parse(input)), as: UTF8.self)
        let expected =
            #"{"\r":"Carriage Return","1":"One","\#u{80}":"Control","ö":"Latin Small Letter O With Diaeresis","#
            + #""€":"Euro Sign","😀":"Emoji: Grinning Face","\#u{FB33}":"Hebrew Letter Dalet With Dagesh"}"#
        #expect(output == expected)
    }

    @Test("RFC 8785 §3.2.2.2: short escapes, \\u00xx lowercase for other controls, '/' and DEL literal")
    func stringEscapes() throws {
        let text = "\u{8}\u{9}\u{A}\u{C}\u{D}\u{1F}\u{0}\"\\/\u{7F}é"
        let output = try Self.canonical(.string(text))
        #expect(output == #""\b\t\n\f\r\u001f\u0000\"\\/"# + "\u{7F}é\"")
    }

    @Test("canonical form ignores input whitespace and member order")
    func orderIndependent() throws {
        let a = try JCS.canonicalBytes(try Self.parse(#"{"b": 1, "a": [true, {"d": null, "c": "x"}]}"#))
        let b = try JCS.canonicalBytes(try Self.parse(#"{"a":[true,{"c":"x","d":null}],"b":1.0}"#))
        #expect(a == b)
        #expect(String(decoding: a, as: UTF8.self) == #"{"a":[true,{"c":"x","d":null}],"b":1}"#)
    }
}
