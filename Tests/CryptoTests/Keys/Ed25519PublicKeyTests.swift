import Crypto
import TestSupport
import Testing

@Suite("Ed25519PublicKey")
struct Ed25519PublicKeyTests {
    @Test("Wycheproof Ed25519: every valid vector accepted, every invalid one rejected")
    func wycheproof() throws {
        let vectors = try WycheproofFile.load("ed25519_test.json")
        let tally = vectors.run { group, test in
            guard let raw = group.publicKey.pk, let key = try? Ed25519PublicKey(rawRepresentation: Hex.decode(raw))
            else { return false }
            return key.isValidSignature(Hex.decode(test.sig), for: Hex.decode(test.msg))
        }
        #expect(tally.failures.isEmpty, "\(tally)")
        #expect(tally.validAccepted == 88)
        #expect(tally.invalidRejected == 62)
        #expect(tally.acceptable == vectors.numberOfTests - 150)
    }

    @Test("a key of the wrong length is refused with .invalidKey")
    func wrongLength() {
        #expect(throws: CryptoError(.invalidKey, "")) {
            try Ed25519PublicKey(rawRepresentation: [UInt8](repeating: 1, count: 31))
        }
        #expect(throws: CryptoError(.invalidKey, "")) {
            try Ed25519PublicKey(rawRepresentation: [UInt8](repeating: 1, count: 33))
        }
    }

    @Test("a signature of the wrong length is rejected")
    func wrongSignatureLength() throws {
        let signingKey = try Ed25519SigningKey()
        let signature = try signingKey.signature(for: [1])
        #expect(signingKey.publicKey.isValidSignature(signature, for: [1]))
        #expect(!signingKey.publicKey.isValidSignature(signature + [0], for: [1]))
        #expect(!signingKey.publicKey.isValidSignature(Array(signature.dropLast()), for: [1]))
    }

    @Test("the SPKI form round-trips through PublicKey")
    func spki() throws {
        let key = try Ed25519SigningKey().publicKey
        guard case .ed25519(let decoded) = try PublicKey(derRepresentation: key.derRepresentation) else {
            Issue.record("SPKI did not decode as Ed25519")
            return
        }
        #expect(decoded.rawRepresentation == key.rawRepresentation)
    }
}
