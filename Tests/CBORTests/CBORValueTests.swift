import Testing

@testable import CBOR

@Suite("CBORValue")
struct CBORValueTests {
    let map: CBORValue = .map([
        CBORMapEntry(key: CBORValue(3), value: CBORValue(-7)),
        CBORMapEntry(key: .text("fmt"), value: .text("none")),
        CBORMapEntry(key: .text("data"), value: .bytes([1, 2])),
        CBORMapEntry(key: .text("list"), value: .array([.null])),
    ])

    @Test("map lookups by int, text and value")
    func lookups() {
        #expect(map[int: 3] == CBORValue(-7))
        #expect(map[text: "fmt"]?.textValue == "none")
        #expect(map[.text("data")]?.bytesValue == [1, 2])
        #expect(map[text: "list"]?.arrayValue == [.null])
        #expect(map[int: 4] == nil)
        #expect(CBORValue.null[int: 3] == nil)
        #expect(map.mapEntries?.count == 4)
    }

    @Test("an integer lookup finds keys of either major type, and only integer keys")
    func integerLookups() {
        let keys: CBORValue = .map([
            CBORMapEntry(key: .text("1"), value: .text("text one")),
            CBORMapEntry(key: .negative(0), value: .text("minus one")),
            CBORMapEntry(key: .unsigned(1), value: .text("one")),
            CBORMapEntry(key: .negative(UInt64.max), value: .text("too small for Int")),
            CBORMapEntry(key: .unsigned(0), value: .text("zero")),
        ])
        #expect(keys[int: 1]?.textValue == "one")
        #expect(keys[int: -1]?.textValue == "minus one")
        #expect(keys[int: 0]?.textValue == "zero")
        #expect(keys[int: -2] == nil)
        #expect(keys[int: Int.min] == nil)
        for key in [-3, -2, -1, 0, 1, 2, 3] { #expect(keys[int: key] == keys[CBORValue(key)]) }
    }

    @Test("intValue covers both major types and refuses what does not fit")
    func intValue() {
        #expect(CBORValue(-7).intValue == -7)
        #expect(CBORValue.negative(0).intValue == -1)
        #expect(CBORValue.unsigned(42).intValue == 42)
        #expect(CBORValue.unsigned(UInt64.max).intValue == nil)
        #expect(CBORValue.negative(UInt64.max).intValue == nil)
        #expect(CBORValue(Int.min).intValue == Int.min)
        #expect(CBORValue.text("1").intValue == nil)
    }

    @Test("typed accessors return nil for other kinds")
    func accessorsNil() {
        #expect(CBORValue.unsigned(1).bytesValue == nil)
        #expect(CBORValue.unsigned(1).textValue == nil)
        #expect(CBORValue.unsigned(1).arrayValue == nil)
        #expect(CBORValue.unsigned(1).mapEntries == nil)
    }
}
