import Crypto
import TestSupport
import Testing

@Suite("PBKDF2")
struct PBKDF2Tests {
    // RFC 7914 §11: PBKDF2-HMAC-SHA256 test vectors.
    @Test("PBKDF2-HMAC-SHA-256 matches RFC 7914 §11 (P=\"Password\", S=\"NaCl\", c=80000)")
    func knownAnswer() throws {
        let output = try PBKDF2.sha256(
            password: Array("Password".utf8), salt: Array("NaCl".utf8), iterations: 80_000, byteCount: 64)
        #expect(
            Hex.encode(output)
                == "4ddcd8f60b98be21830cee5ef22701f9641a4418d04c0414aeff08876b34ab56a1d425a1225833549adb841b51c9b3176a272bdebba1d078478f62b397f33c8d"
        )
    }

    @Test("an empty salt, too few iterations or a bad length is refused as invalid_key")
    func refusals() {
        #expect(throws: CryptoError(.invalidKey, "")) {
            try PBKDF2.sha256(password: [1], salt: [], iterations: 1_000)
        }
        #expect(throws: CryptoError(.invalidKey, "")) {
            try PBKDF2.sha256(password: [1], salt: [1], iterations: 999)
        }
        #expect(throws: CryptoError(.invalidKey, "")) {
            try PBKDF2.sha256(password: [1], salt: [1], iterations: 1_000, byteCount: 8)
        }
    }
}
