import Crypto
import TestSupport
import Testing

@Suite("Ed25519SigningKey")
struct Ed25519SigningKeyTests {
    @Test("RFC 8032 §7.1 TEST 1: the seed gives the published key and signature")
    func rfc8032() throws {
        let key = try Ed25519SigningKey(
            rawRepresentation: Hex.decode("9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60"))
        #expect(
            Hex.encode(key.publicKey.rawRepresentation)
                == "d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a")
        #expect(
            Hex.encode(try key.signature(for: []))
                == "e5564300c360ac729086e2cc806e828a84877f1eb8e5d974d873e065224901555fb8821590a33bacc61e39701cf9b46bd25bf5f0595bbe24655141438e7a100b"
        )
        #expect(key.rawRepresentation.count == 32)
    }

    @Test("a seed of the wrong length is refused with .invalidKey")
    func wrongLength() {
        #expect(throws: CryptoError(.invalidKey, "")) {
            try Ed25519SigningKey(rawRepresentation: [UInt8](repeating: 0, count: 31))
        }
    }

    @Test("generated keys sign verifiably")
    func generated() throws {
        let key = try Ed25519SigningKey()
        #expect(key.publicKey.isValidSignature(try key.signature(for: [7]), for: [7]))
        #expect(!key.publicKey.isValidSignature(try key.signature(for: [7]), for: [8]))
    }
}
