/// A P-256 private key for ES256 (RFC 7518 §3.4, COSE alg -7): the server's token signing key and
/// the key of software authenticators in tests.
public struct P256SigningKey: Sendable {
    /// The cached OpenSSL key pair.
    let key: EVPKey
    /// The public half.
    public let publicKey: ECPublicKey
    /// The key's ES256 signing context, set up once (`nil` if OpenSSL refused: signing then takes the one-shot path).
    let signingTemplate: ECDSASigningTemplate?

    /// Generates a new key pair from OpenSSL's CSPRNG.
    public init() throws(CryptoError) {
        try self.init(keyPair: EVPKey.generateP256())
    }

    /// Imports a DER PKCS#8 PrivateKeyInfo (RFC 5208 §5) holding a P-256 key.
    /// - Throws: `.invalidKey` for malformed DER, trailing bytes or a key that is not on P-256.
    public init(pkcs8DERRepresentation: [UInt8]) throws(CryptoError) {
        try self.init(keyPair: EVPKey.fromPKCS8(pkcs8DERRepresentation))
    }

    private init(keyPair: EVPKey) throws(CryptoError) {
        guard keyPair.kind == .ec, let groupName = keyPair.utf8StringParameter("group"),
            EllipticCurve(openSSLGroupName: groupName) == .p256
        else {
            throw CryptoError(.invalidKey, "private key is not a P-256 key")
        }
        guard let point = keyPair.octetStringParameter("pub") else {
            throw CryptoError(.invalidKey, "P-256 private key has no public point")
        }
        self.key = keyPair
        self.signingTemplate = ECDSASigningTemplate(key: keyPair, method: MessageDigestMethod.of(.sha256))
        self.publicKey = try ECPublicKey(x963Representation: point, curve: .p256)
    }

    /// The key as DER PKCS#8 PrivateKeyInfo (secret: store encrypted).
    public var pkcs8DERRepresentation: [UInt8] { key.pkcs8() }

    /// An ECDSA signature of `message` with SHA-256, DER-encoded (convert with `ECDSASignature` for JOSE).
    public func signature(for message: [UInt8]) throws(CryptoError) -> [UInt8] {
        let method = MessageDigestMethod.of(.sha256)
        guard let signingTemplate else { return try key.digestSign(message: message, method: method) }
        // RFC 7518 §3.4 / FIPS 186-4 §6.4: ECDSA over SHA-256(message); the digest is computed here and the
        // template signs it.
        return try signingTemplate.sign(digest: Digest.sha256(message))
    }
}
