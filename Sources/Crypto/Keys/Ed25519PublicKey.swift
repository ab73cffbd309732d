/// An Ed25519 public key (RFC 8032), holding its OpenSSL key.
public struct Ed25519PublicKey: Sendable, Equatable {
    /// RFC 8032 §5.1.5: a public key is 32 bytes.
    static let byteCount = 32
    /// RFC 8032 §5.1.6: a signature is 64 bytes (R || S).
    static let signatureByteCount = 64

    /// The 32-byte encoded point.
    public let rawRepresentation: [UInt8]
    /// The cached OpenSSL key.
    let key: EVPKey

    /// A key from its 32-byte encoding (COSE OKP `x`, RFC 9053 §7.2).
    /// - Throws: `.invalidKey` for any other length.
    public init(rawRepresentation: [UInt8]) throws(CryptoError) {
        guard rawRepresentation.count == Self.byteCount else {
            throw CryptoError(.invalidKey, "Ed25519 key must be 32 bytes, got \(rawRepresentation.count)")
        }
        self.key = try EVPKey.ed25519PublicKey(raw: rawRepresentation)
        self.rawRepresentation = rawRepresentation
    }

    /// A key from an already-decoded SPKI key.
    init(subjectPublicKeyInfo parsed: EVPKey) throws(CryptoError) {
        guard parsed.kind == .ed25519, let raw = parsed.rawPublicKey() else {
            throw CryptoError(.invalidKey, "SubjectPublicKeyInfo is not an Ed25519 key")
        }
        try self.init(rawRepresentation: raw)
    }

    /// The key as DER SubjectPublicKeyInfo (RFC 8410 §4).
    public var derRepresentation: [UInt8] { key.subjectPublicKeyInfo() }

    /// Whether `signature` is a valid Ed25519 signature of `message` (RFC 8032 §5.1.7).
    public func isValidSignature(_ signature: [UInt8], for message: [UInt8]) -> Bool {
        // RFC 8032 §5.1.7 step 1: the signature is exactly 64 bytes.
        guard signature.count == Self.signatureByteCount else { return false }
        return key.verifyPureEdDSA(signature: signature, message: message)
    }

    /// Keys are equal when their encodings are.
    public static func == (lhs: Ed25519PublicKey, rhs: Ed25519PublicKey) -> Bool {
        lhs.rawRepresentation == rhs.rawRepresentation
    }
}
