import Crypto
import Testing

@Suite("ECDSASignature")
struct ECDSASignatureTests {
    @Test("DER → raw → DER round-trips and raw is 2 × 32 bytes for P-256")
    func roundTrip() throws {
        let key = try P256SigningKey()
        let der = try key.signature(for: [1, 2, 3])
        let raw = try ECDSASignature.rawRepresentation(fromDER: der, curve: .p256)
        #expect(raw.count == 64)
        #expect(try ECDSASignature.derRepresentation(fromRaw: raw, curve: .p256) == der)
    }

    @Test("small r and s are left-padded in raw form and minimally encoded in DER")
    func padding() throws {
        let raw = [UInt8](repeating: 0, count: 31) + [0x05] + [UInt8](repeating: 0, count: 31) + [0x81]
        let der = try ECDSASignature.derRepresentation(fromRaw: raw, curve: .p256)
        #expect(der == [0x30, 0x07, 0x02, 0x01, 0x05, 0x02, 0x02, 0x00, 0x81])
        #expect(try ECDSASignature.rawRepresentation(fromDER: der, curve: .p256) == raw)
    }

    @Test("a raw signature of the wrong length is refused with .invalidSignature")
    func wrongRawLength() {
        #expect(throws: CryptoError(.invalidSignature, "")) {
            try ECDSASignature.derRepresentation(fromRaw: [UInt8](repeating: 1, count: 63), curve: .p256)
        }
    }

    @Test("r ≥ n is refused with .invalidSignature")
    func outOfRange() {
        let raw = [UInt8](repeating: 0xFF, count: 32) + [UInt8](repeating: 0, count: 31) + [1]
        #expect(throws: CryptoError(.invalidSignature, "")) {
            try ECDSASignature.derRepresentation(fromRaw: raw, curve: .p256)
        }
    }

    @Test("DER with trailing bytes or a negative integer is refused with .invalidSignature")
    func badDER() throws {
        let good: [UInt8] = [0x30, 0x06, 0x02, 0x01, 0x05, 0x02, 0x01, 0x07]
        #expect(try ECDSASignature.rawRepresentation(fromDER: good, curve: .p256).count == 64)
        #expect(throws: CryptoError(.invalidSignature, "")) {
            try ECDSASignature.rawRepresentation(fromDER: good + [0], curve: .p256)
        }
        let negative: [UInt8] = [0x30, 0x06, 0x02, 0x01, 0x85, 0x02, 0x01, 0x07]
        #expect(throws: CryptoError(.invalidSignature, "")) {
            try ECDSASignature.rawRepresentation(fromDER: negative, curve: .p256)
        }
        let padded: [UInt8] = [0x30, 0x07, 0x02, 0x02, 0x00, 0x05, 0x02, 0x01, 0x07]
        #expect(throws: CryptoError(.invalidSignature, "")) {
            try ECDSASignature.rawRepresentation(fromDER: padded, curve: .p256)
        }
    }
}
