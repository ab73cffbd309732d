import Crypto
import Testing

@Suite("RSAPublicKey")
struct RSAPublicKeyTests {
    /// One 2048-bit key shared by the suite (generation is the slow part).
    static let signingKey = try! RSASigningKey(bits: 2048)
    static let message = Array("RSA test message".utf8)

    static let combinations: [(HashAlgorithm, RSAPadding)] = [
        (.sha1, .pkcs1v15), (.sha256, .pkcs1v15), (.sha384, .pkcs1v15), (.sha512, .pkcs1v15),
        (.sha256, .pss), (.sha384, .pss), (.sha512, .pss),
    ]

    @Test("sign/verify round trip", arguments: combinations)
    func roundTrip(hash: HashAlgorithm, padding: RSAPadding) throws {
        let key = Self.signingKey
        let signature = try key.signature(for: Self.message, hash: hash, padding: padding)
        #expect(signature.count == key.publicKey.modulusByteCount)
        #expect(key.publicKey.isValidSignature(signature, for: Self.message, hash: hash, padding: padding))
        #expect(!key.publicKey.isValidSignature(signature, for: Self.message + [0], hash: hash, padding: padding))
    }

    @Test("a signature is rejected under another hash or another padding")
    func wrongHashOrPadding() throws {
        let key = Self.signingKey
        let pkcs1 = try key.signature(for: Self.message, hash: .sha256, padding: .pkcs1v15)
        #expect(!key.publicKey.isValidSignature(pkcs1, for: Self.message, hash: .sha384, padding: .pkcs1v15))
        #expect(!key.publicKey.isValidSignature(pkcs1, for: Self.message, hash: .sha256, padding: .pss))
        let pss = try key.signature(for: Self.message, hash: .sha256, padding: .pss)
        #expect(!key.publicKey.isValidSignature(pss, for: Self.message, hash: .sha256, padding: .pkcs1v15))
        #expect(!key.publicKey.isValidSignature(pss, for: Self.message, hash: .sha512, padding: .pss))
    }

    @Test("a signature of the wrong length is rejected (RFC 8017 §8.2.2 step 1)")
    func wrongSignatureLength() throws {
        let key = Self.signingKey
        let signature = try key.signature(for: Self.message, hash: .sha256, padding: .pkcs1v15)
        #expect(!key.publicKey.isValidSignature([0] + signature, for: Self.message, hash: .sha256, padding: .pkcs1v15))
        #expect(
            !key.publicKey.isValidSignature(
                Array(signature.dropFirst()), for: Self.message, hash: .sha256, padding: .pkcs1v15))
    }

    @Test("modulus/exponent and SPKI forms give the same key; leading zeros are ignored")
    func representations() throws {
        let key = Self.signingKey.publicKey
        #expect(key.exponent == [0x01, 0x00, 0x01])
        let padded = try RSAPublicKey(modulus: [0] + key.modulus, exponent: [0] + key.exponent)
        #expect(padded.modulus == key.modulus)
        let fromDER = try RSAPublicKey(derRepresentation: key.derRepresentation)
        #expect(fromDER.modulus == key.modulus && fromDER.exponent == key.exponent)
        guard case .rsa(let generic) = try PublicKey(derRepresentation: key.derRepresentation) else {
            Issue.record("SPKI did not decode as RSA")
            return
        }
        #expect(generic.modulus == key.modulus)
    }

    @Test("a modulus under 1024 bits is refused with .invalidKey")
    func smallModulus() throws {
        let key = Self.signingKey.publicKey
        #expect(throws: CryptoError(.invalidKey, "")) {
            try RSAPublicKey(modulus: Array(key.modulus.prefix(127)), exponent: key.exponent)
        }
        #expect(throws: CryptoError(.invalidKey, "")) { try RSASigningKey(bits: 512) }
    }

    @Test("an even exponent, exponent 1 or an empty exponent is refused with .invalidKey")
    func badExponent() throws {
        let modulus = Self.signingKey.publicKey.modulus
        #expect(throws: CryptoError(.invalidKey, "")) {
            try RSAPublicKey(modulus: modulus, exponent: [0x01, 0x00, 0x00])
        }
        #expect(throws: CryptoError(.invalidKey, "")) { try RSAPublicKey(modulus: modulus, exponent: [0x01]) }
        #expect(throws: CryptoError(.invalidKey, "")) { try RSAPublicKey(modulus: modulus, exponent: []) }
        #expect(throws: CryptoError(.invalidKey, "")) {
            try RSAPublicKey(modulus: modulus, exponent: [UInt8](repeating: 0xFF, count: 9))
        }
    }

    @Test("an even modulus is refused with .invalidKey")
    func evenModulus() throws {
        var modulus = Self.signingKey.publicKey.modulus
        modulus[modulus.count - 1] &= 0xFE
        #expect(throws: CryptoError(.invalidKey, "")) { try RSAPublicKey(modulus: modulus, exponent: [1, 0, 1]) }
    }

    @Test("PKCS#8 export and import keep the key")
    func pkcs8() throws {
        let key = Self.signingKey
        let imported = try RSASigningKey(pkcs8DERRepresentation: key.pkcs8DERRepresentation)
        #expect(imported.publicKey.modulus == key.publicKey.modulus)
        let signature = try imported.signature(for: Self.message, hash: .sha256, padding: .pss)
        #expect(key.publicKey.isValidSignature(signature, for: Self.message, hash: .sha256, padding: .pss))
        let ecKey = try P256SigningKey()
        #expect(throws: CryptoError(.invalidKey, "")) {
            try RSASigningKey(pkcs8DERRepresentation: ecKey.pkcs8DERRepresentation)
        }
    }
}
