/// Any public key this module verifies with: what an X.509 SubjectPublicKeyInfo can hold.
public enum PublicKey: Sendable, Equatable {
    /// ECDSA on P-256/P-384/P-521.
    case ec(ECPublicKey)
    /// Ed25519.
    case ed25519(Ed25519PublicKey)
    /// Ed448.
    case ed448(Ed448PublicKey)
    /// RSA.
    case rsa(RSAPublicKey)

    /// A key from a DER SubjectPublicKeyInfo of any of these kinds (RFC 5280 §4.1.2.7).
    /// - Throws: `.invalidKey` for malformed DER or a rejected key, `.unsupportedAlgorithm` for other key types.
    public init(derRepresentation: [UInt8]) throws(CryptoError) {
        let parsed = try EVPKey.fromSubjectPublicKeyInfo(derRepresentation)
        switch parsed.kind {
        case .ec: self = .ec(try ECPublicKey(subjectPublicKeyInfo: parsed))
        case .ed25519: self = .ed25519(try Ed25519PublicKey(subjectPublicKeyInfo: parsed))
        case .ed448: self = .ed448(try Ed448PublicKey(subjectPublicKeyInfo: parsed))
        case .rsa: self = .rsa(try RSAPublicKey(subjectPublicKeyInfo: parsed))
        case .other: throw CryptoError(.unsupportedAlgorithm, "SubjectPublicKeyInfo holds an unsupported key type")
        }
    }

    /// The key as DER SubjectPublicKeyInfo.
    public var derRepresentation: [UInt8] {
        switch self {
        case .ec(let key): key.derRepresentation
        case .ed25519(let key): key.derRepresentation
        case .ed448(let key): key.derRepresentation
        case .rsa(let key): key.derRepresentation
        }
    }

    /// Verifies by key type: ECDSA (DER signature, `hash`), Ed25519 and Ed448 (`hash` ignored: PureEdDSA),
    /// RSA (`hash` with `rsaPadding`).
    public func isValidSignature(
        _ signature: [UInt8], for message: [UInt8], hash: HashAlgorithm, rsaPadding: RSAPadding = .pkcs1v15
    ) -> Bool {
        switch self {
        case .ec(let key): key.isValidSignature(signature, for: message, hash: hash)
        case .ed25519(let key): key.isValidSignature(signature, for: message)
        case .ed448(let key): key.isValidSignature(signature, for: message)
        case .rsa(let key): key.isValidSignature(signature, for: message, hash: hash, padding: rsaPadding)
        }
    }
}
