import Crypto
import TestSupport
import Testing

@Suite("PublicKey")
struct PublicKeyTests {
    @Test("verifies by key type")
    func dispatch() throws {
        let message: [UInt8] = [9, 8, 7]
        let ec = try P256SigningKey()
        let ecKey = try PublicKey(derRepresentation: ec.publicKey.derRepresentation)
        #expect(ecKey.isValidSignature(try ec.signature(for: message), for: message, hash: .sha256))
        let ed = try Ed25519SigningKey()
        let edKey = try PublicKey(derRepresentation: ed.publicKey.derRepresentation)
        #expect(edKey.isValidSignature(try ed.signature(for: message), for: message, hash: .sha512))
        #expect(ecKey.derRepresentation == ec.publicKey.derRepresentation)
    }

    @Test("garbage is refused with .invalidKey")
    func garbage() {
        #expect(throws: CryptoError(.invalidKey, "")) {
            try PublicKey(derRepresentation: [0x30, 0x03, 0x02, 0x01, 0x01])
        }
    }

    @Test("an X25519 key (a type we do not verify with) is refused with .unsupportedAlgorithm")
    func unsupportedType() {
        // SPKI for X25519 (RFC 8410 §10.1 example).
        let x25519 = Hex.decode("302a300506032b656e032100" + String(repeating: "11", count: 32))
        #expect(throws: CryptoError(.unsupportedAlgorithm, "")) { try PublicKey(derRepresentation: x25519) }
    }

    @Test("an EC key on an unsupported curve (secp256k1) is refused with .unsupportedAlgorithm")
    func unsupportedCurve() {
        // SPKI for the secp256k1 generator point.
        let der = Hex.decode(
            "3056301006072a8648ce3d020106052b8104000a034200"
                + "0479be667ef9dcbbac55a06295ce870b07029bfcdb2dce28d959f2815b16f81798"
                + "483ada7726a3c4655da4fbfc0e1108a8fd17b448a68554199c47d08ffb10d4b8")
        #expect(throws: CryptoError(.unsupportedAlgorithm, "")) { try PublicKey(derRepresentation: der) }
    }
}
