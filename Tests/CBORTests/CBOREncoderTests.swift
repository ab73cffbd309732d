import Testing

@testable import CBOR

@Suite("CBOREncoder")
struct CBOREncoderTests {
    @Test("integers use the shortest head (RFC 8949 §4.2.1)")
    func shortestIntegers() throws {
        #expect(try CBOREncoder.encode(.unsigned(23)) == [0x17])
        #expect(try CBOREncoder.encode(.unsigned(24)) == [0x18, 0x18])
        #expect(try CBOREncoder.encode(.unsigned(1000)) == [0x19, 0x03, 0xE8])
        #expect(try CBOREncoder.encode(.unsigned(1_000_000)) == [0x1A, 0x00, 0x0F, 0x42, 0x40])
        #expect(try CBOREncoder.encode(CBORValue(-7)) == [0x26])
        #expect(try CBOREncoder.encode(CBORValue(-257)) == [0x39, 0x01, 0x00])
    }

    @Test("a COSE-key-shaped map encodes as RFC 8152 expects")
    func coseShape() throws {
        let value: CBORValue = .map([
            CBORMapEntry(key: CBORValue(1), value: CBORValue(2)),
            CBORMapEntry(key: CBORValue(3), value: CBORValue(-7)),
        ])
        #expect(try CBOREncoder.encode(value) == [0xA2, 0x01, 0x02, 0x03, 0x26])
    }

    @Test("text, bytes, simple values and tags encode")
    func others() throws {
        #expect(try CBOREncoder.encode(.text("a")) == [0x61, 0x61])
        #expect(try CBOREncoder.encode(.bytes([0xFF])) == [0x41, 0xFF])
        #expect(try CBOREncoder.encode(.bool(false)) == [0xF4])
        #expect(try CBOREncoder.encode(.null) == [0xF6])
        #expect(try CBOREncoder.encode(.undefined) == [0xF7])
        #expect(try CBOREncoder.encode(.tagged(1, .unsigned(0))) == [0xC1, 0x00])
        #expect(try CBOREncoder.encode(.bytes([])) == [0x40])
        #expect(try CBOREncoder.encode(.text("")) == [0x60])
    }
}
