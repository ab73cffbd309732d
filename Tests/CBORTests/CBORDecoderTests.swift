import Testing

@testable import CBOR

@Suite("CBORDecoder")
struct CBORDecoderTests {
    /// A map shaped like a COSE key plus nested containers, tags, floats and text.
    static let sample: CBORValue = .map([
        CBORMapEntry(key: CBORValue(1), value: CBORValue(2)),
        CBORMapEntry(key: CBORValue(3), value: CBORValue(-7)),
        CBORMapEntry(key: CBORValue(-2), value: .bytes(Array(repeating: 0xAB, count: 32))),
        CBORMapEntry(key: .text("list"), value: .array([.bool(true), .null, .undefined, .float(1.5), .text("é")])),
        CBORMapEntry(key: .text("tag"), value: .tagged(24, .bytes([1, 2, 3]))),
        CBORMapEntry(key: .text("big"), value: .unsigned(UInt64.max)),
        CBORMapEntry(key: .text("neg"), value: .negative(70_000)),
    ])

    @Test("a value survives an encode/decode round trip, entries in order")
    func roundTrip() throws {
        let bytes = try CBOREncoder.encode(Self.sample)
        #expect(try CBORDecoder.decode(bytes) == Self.sample)
    }

    @Test("RFC 8949 Appendix A vectors decode to the listed values")
    func appendixA() throws {
        #expect(try CBORDecoder.decode([0x00]) == .unsigned(0))
        #expect(try CBORDecoder.decode([0x18, 0x64]) == .unsigned(100))
        #expect(try CBORDecoder.decode([0x20]) == CBORValue(-1))
        #expect(try CBORDecoder.decode([0x39, 0x03, 0xE7]) == CBORValue(-1000))
        #expect(try CBORDecoder.decode([0xF9, 0x3C, 0x00]) == .float(1.0))
        #expect(try CBORDecoder.decode([0x64, 0x49, 0x45, 0x54, 0x46]) == .text("IETF"))
        #expect(
            try CBORDecoder.decode([0x83, 0x01, 0x02, 0x03]) == .array([.unsigned(1), .unsigned(2), .unsigned(3)]))
        #expect(try CBORDecoder.decode([0xA0]) == .map([]))
        #expect(try CBORDecoder.decode([0x80]) == .array([]))
        #expect(try CBORDecoder.decode([0x40]) == .bytes([]))
    }

    @Test("decodePrefix reports the bytes the first item used")
    func prefixConsumed() throws {
        let item = try CBOREncoder.encode(Self.sample)
        let input = item + [0xFF, 0x00]
        let (value, consumed) = try CBORDecoder.decodePrefix(input[...])
        #expect(value == Self.sample)
        #expect(consumed == item.count)
    }

    @Test("decodePrefix works on a slice that does not start at index 0")
    func prefixOfSlice() throws {
        let input: [UInt8] = [0x99, 0x99, 0x82, 0x01, 0x02, 0x07]
        let (value, consumed) = try CBORDecoder.decodePrefix(input[2...])
        #expect(value == .array([.unsigned(1), .unsigned(2)]))
        #expect(consumed == 3)
    }

    @Test("trailing bytes after the item are refused by decode")
    func trailingBytes() {
        #expect(throws: CBORError(.trailingBytes, "")) { try CBORDecoder.decode([0x01, 0x02]) }
    }

    @Test("an input that ends inside a head is truncated")
    func truncatedHead() {
        #expect(throws: CBORError(.truncated, "")) { try CBORDecoder.decode([0x19, 0x01]) }
    }

    @Test("an input that ends inside a container is truncated")
    func truncatedContainer() {
        #expect(throws: CBORError(.truncated, "")) { try CBORDecoder.decode([0x82, 0x01]) }
    }

    @Test("the empty input is truncated")
    func empty() {
        #expect(throws: CBORError(.truncated, "")) { try CBORDecoder.decode([]) }
    }

    @Test("a byte string declaring 2^64-1 bytes is truncated, never allocated")
    func hugeByteString() {
        let input: [UInt8] = [0x5B, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x00]
        #expect(throws: CBORError(.truncated, "")) { try CBORDecoder.decode(input) }
    }

    @Test("an array declaring more elements than the item limit is tooLarge before allocation")
    func hugeArray() {
        let input: [UInt8] = [0x9B, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x00, 0x01]
        #expect(throws: CBORError(.tooLarge, "")) { try CBORDecoder.decode(input) }
    }

    @Test("a map declaring more entries than the bytes left can hold is truncated")
    func hugeMap() {
        #expect(throws: CBORError(.truncated, "")) { try CBORDecoder.decode([0xA2, 0x01, 0x02, 0x03]) }
    }

    @Test("more items than Limits.maxItems is tooLarge")
    func itemLimit() {
        var limits = CBORDecoder.Limits()
        limits.maxItems = 3
        #expect(throws: CBORError(.tooLarge, "")) {
            try CBORDecoder.decode([0x83, 0x01, 0x02, 0x03], limits: limits)
        }
    }

    @Test("a reserved additional-information value is malformed")
    func reservedInfo() {
        #expect(throws: CBORError(.malformed, "")) { try CBORDecoder.decode([0x1C]) }
    }

    @Test("indefinite-length arrays are refused")
    func indefiniteArray() {
        #expect(throws: CBORError(.indefiniteLength, "")) { try CBORDecoder.decode([0x9F, 0x01, 0xFF]) }
    }

    @Test("indefinite-length byte strings are refused")
    func indefiniteBytes() {
        #expect(throws: CBORError(.indefiniteLength, "")) { try CBORDecoder.decode([0x5F, 0x41, 0x00, 0xFF]) }
    }

    @Test("indefinite-length maps are refused")
    func indefiniteMap() {
        #expect(throws: CBORError(.indefiniteLength, "")) { try CBORDecoder.decode([0xBF, 0x01, 0x02, 0xFF]) }
    }

    @Test("a lone break byte is refused")
    func loneBreak() {
        #expect(throws: CBORError(.indefiniteLength, "")) { try CBORDecoder.decode([0xFF]) }
    }

    @Test("a map with the same key twice is refused")
    func duplicateKey() {
        #expect(throws: CBORError(.duplicateMapKey, "")) { try CBORDecoder.decode([0xA2, 0x01, 0x01, 0x01, 0x02]) }
    }

    @Test("small maps compare keys by value: 1 and -2 are different keys, equal texts or byte strings are not")
    func smallMapKeyKinds() throws {
        // 1 is .unsigned(1) and -2 is .negative(1): same payload, different major type, different keys.
        let mixed = try CBORDecoder.decode([0xA2, 0x01, 0xF6, 0x21, 0xF6])
        #expect(mixed.mapEntries?.map(\.key) == [CBORValue(1), CBORValue(-2)])
        #expect(throws: CBORError(.duplicateMapKey, "")) { try CBORDecoder.decode([0xA2, 0x21, 0x01, 0x21, 0x02]) }
        let texts = try CBOREncoder.encode(
            .map([CBORMapEntry(key: .text("fmt"), value: .null), CBORMapEntry(key: .text("fmt"), value: .null)]))
        #expect(throws: CBORError(.duplicateMapKey, "")) { try CBORDecoder.decode(texts) }
        let bytes = try CBOREncoder.encode(
            .map([CBORMapEntry(key: .bytes([1]), value: .null), CBORMapEntry(key: .bytes([1]), value: .null)]))
        #expect(throws: CBORError(.duplicateMapKey, "")) { try CBORDecoder.decode(bytes) }
        #expect(try CBORDecoder.decode([0xA2, 0x01, 0xF6, 0x61, 0x31, 0xF6]).mapEntries?.count == 2)  // 1 and "1"
    }

    @Test("entries and elements keep their encoded order through nested containers")
    func nestedOrder() throws {
        let value: CBORValue = .map([
            CBORMapEntry(
                key: CBORValue(-3),
                value: .array([
                    CBORValue(3),
                    .map([
                        CBORMapEntry(key: .text("b"), value: .tagged(1, .bytes([2]))),
                        CBORMapEntry(key: .text("a"), value: .array([])),
                    ]), .text("z"),
                ])),
            CBORMapEntry(key: CBORValue(1), value: .map([])),
            CBORMapEntry(key: CBORValue(-1), value: .tagged(2, .array([.null, .bool(false)]))),
        ])
        #expect(try CBORDecoder.decode(try CBOREncoder.encode(value)) == value)
    }

    @Test("duplicate keys are found in large maps too")
    func duplicateKeyLargeMap() throws {
        var entries = (0..<20).map { CBORMapEntry(key: CBORValue($0), value: .null) }
        entries.append(CBORMapEntry(key: CBORValue(5), value: .null))
        let bytes = try CBOREncoder.encode(.map(entries))
        #expect(throws: CBORError(.duplicateMapKey, "")) { try CBORDecoder.decode(bytes) }
    }

    @Test("nesting up to maxDepth decodes, one more level is depthExceeded")
    func depth() throws {
        let sixteen = [UInt8](repeating: 0x81, count: 16) + [0x00]
        #expect(throws: Never.self) { try CBORDecoder.decode(sixteen) }
        let seventeen = [UInt8](repeating: 0x81, count: 17) + [0x00]
        #expect(throws: CBORError(.depthExceeded, "")) { try CBORDecoder.decode(seventeen) }
    }

    @Test("tags count toward depth")
    func tagDepth() {
        let input = [UInt8](repeating: 0xC1, count: 17) + [0x00]
        #expect(throws: CBORError(.depthExceeded, "")) { try CBORDecoder.decode(input) }
    }

    @Test("text that is not UTF-8 is refused")
    func invalidUTF8() {
        #expect(throws: CBORError(.invalidUTF8, "")) { try CBORDecoder.decode([0x62, 0xFF, 0xFE]) }
    }

    @Test("unassigned simple values are malformed")
    func unassignedSimple() {
        #expect(throws: CBORError(.malformed, "")) { try CBORDecoder.decode([0xF0]) }
    }

    @Test("every prefix and every single-byte flip gives a value or a CBORError, never a trap")
    func robustness() throws {
        let valid = try CBOREncoder.encode(Self.sample)
        for length in 0..<valid.count {
            #expect(throws: CBORError.self) { try CBORDecoder.decode(Array(valid[..<length])) }
        }
        for offset in valid.indices {
            for mask: UInt8 in [0x01, 0x80, 0xFF] {
                var mutated = valid
                mutated[offset] ^= mask
                _ = try? CBORDecoder.decode(mutated)
            }
        }
    }
}
