import Crypto
import TestSupport
import Testing

@Suite("HKDF")
struct HKDFTests {
    @Test("HKDF-SHA-256 matches RFC 5869 test cases 1 and 3")
    func knownAnswers() throws {
        // A.1: salt and info given, 42 bytes.
        let first = try HKDF.sha256(
            secret: [UInt8](repeating: 0x0b, count: 22), salt: Hex.decode("000102030405060708090a0b0c"),
            info: Hex.decode("f0f1f2f3f4f5f6f7f8f9"), length: 42)
        #expect(
            Hex.encode(first)
                == "3cb25f25faacd57a90434f64d0362f2a2d2d0a90cf1a5a4c5db02d56ecc4c5bf34007208d5b887185865")
        // A.3: no salt, no info.
        let third = try HKDF.sha256(secret: [UInt8](repeating: 0x0b, count: 22), info: [], length: 42)
        #expect(
            Hex.encode(third)
                == "8da4e775a563c18f715f802a063c5a31b8a11f5c5ee1879ec3454e5f3c738d2d9d201395faa4b61a96c8")
    }

    @Test("an empty secret or an impossible length is refused")
    func refusals() {
        #expect(throws: CryptoError.self) { try HKDF.sha256(secret: [], info: [], length: 32) }
        #expect(throws: CryptoError.self) { try HKDF.sha256(secret: [1], info: [], length: 0) }
        #expect(throws: CryptoError.self) { try HKDF.sha256(secret: [1], info: [], length: 255 * 32 + 1) }
    }
}
