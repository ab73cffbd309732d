/// An RSA private key, used by software authenticators in tests (COSE RS256/PS256…, TPM).
public struct RSASigningKey: Sendable {
    /// The cached OpenSSL key pair.
    let key: EVPKey
    /// The public half.
    public let publicKey: RSAPublicKey

    /// Generates a new key pair of `bits` bits with public exponent 65537.
    /// - Throws: `.invalidKey` when `bits` is outside the accepted modulus range.
    public init(bits: Int = 2048) throws(CryptoError) {
        guard bits >= RSAPublicKey.minimumModulusBits, bits <= RSAPublicKey.maximumModulusBits else {
            throw CryptoError(.invalidKey, "RSA key size \(bits) is outside the accepted range")
        }
        let keyPair = try EVPKey.generateRSA(bits: bits)
        guard let n = keyPair.bigNumberParameter("n"), let e = keyPair.bigNumberParameter("e") else {
            throw CryptoError(.internalFailure, "generated RSA key has no public parameters")
        }
        self.key = keyPair
        self.publicKey = try RSAPublicKey(modulus: n, exponent: e)
    }

    /// Imports a DER PKCS#8 PrivateKeyInfo holding an RSA key.
    /// - Throws: `.invalidKey` for malformed DER or another key type.
    public init(pkcs8DERRepresentation: [UInt8]) throws(CryptoError) {
        let keyPair = try EVPKey.fromPKCS8(pkcs8DERRepresentation)
        guard keyPair.kind == .rsa, let n = keyPair.bigNumberParameter("n"), let e = keyPair.bigNumberParameter("e")
        else {
            throw CryptoError(.invalidKey, "private key is not an RSA key")
        }
        self.key = keyPair
        self.publicKey = try RSAPublicKey(modulus: n, exponent: e)
    }

    /// The key as DER PKCS#8 PrivateKeyInfo (secret).
    public var pkcs8DERRepresentation: [UInt8] { key.pkcs8() }

    /// A signature of `message` hashed with `hash` under `padding` (PSS: MGF1 same hash, salt = digest length).
    public func signature(for message: [UInt8], hash: HashAlgorithm, padding: RSAPadding) throws(CryptoError)
        -> [UInt8]
    {
        let method = MessageDigestMethod.of(hash)
        return try key.digestSign(message: message, method: method) { context in
            EVPKey.configureRSA(context, padding: padding, method: method)
        }
    }
}
