import Crypto
import Testing

@Suite("P256SigningKey")
struct P256SigningKeyTests {
    @Test("signatures verify with the public key; two keys differ")
    func signVerify() throws {
        let key = try P256SigningKey()
        let signature = try key.signature(for: [])
        #expect(key.publicKey.isValidSignature(signature, for: [], hash: .sha256))
        #expect(try P256SigningKey().publicKey.x963Representation != key.publicKey.x963Representation)
    }

    @Test("PKCS#8 export and import keep the key")
    func pkcs8() throws {
        let key = try P256SigningKey()
        let imported = try P256SigningKey(pkcs8DERRepresentation: key.pkcs8DERRepresentation)
        #expect(imported.publicKey.x963Representation == key.publicKey.x963Representation)
        let signature = try imported.signature(for: [1])
        #expect(key.publicKey.isValidSignature(signature, for: [1], hash: .sha256))
    }

    @Test("PKCS#8 with trailing bytes is refused with .invalidKey")
    func trailingBytes() throws {
        let der = try P256SigningKey().pkcs8DERRepresentation
        #expect(throws: CryptoError(.invalidKey, "")) { try P256SigningKey(pkcs8DERRepresentation: der + [0]) }
        #expect(throws: CryptoError(.invalidKey, "")) { try P256SigningKey(pkcs8DERRepresentation: []) }
    }

    @Test("a PKCS#8 key that is not P-256 is refused with .invalidKey")
    func otherKeyType() throws {
        let rsa = RSAPublicKeyTests.signingKey.pkcs8DERRepresentation
        #expect(throws: CryptoError(.invalidKey, "")) { try P256SigningKey(pkcs8DERRepresentation: rsa) }
    }
}
