/// An Ed448 public key (RFC 8032 §5.2), holding its OpenSSL key. WebAuthn L3 reaches it only through the
/// fully-specified COSE algorithm Ed448 (-53, RFC 9864 §2.2): EdDSA (-8) is restricted to Ed25519.
public struct Ed448PublicKey: Sendable, Equatable {
    /// RFC 8032 §5.2.5: a public key is 57 bytes.
    static let byteCount = 57
    /// RFC 8032 §5.2.6: a signature is 114 bytes (R || S).
    static let signatureByteCount = 114

    /// The 57-byte encoded point.
    public let rawRepresentation: [UInt8]
    /// The cached OpenSSL key.
    let key: EVPKey

    /// A key from its 57-byte encoding (COSE OKP `x`, RFC 9053 §7.2).
    /// - Throws: `.invalidKey` for any other length or an encoding OpenSSL refuses.
    public init(rawRepresentation: [UInt8]) throws(CryptoError) {
        guard rawRepresentation.count == Self.byteCount else {
            throw CryptoError(.invalidKey, "Ed448 key must be 57 bytes, got \(rawRepresentation.count)")
        }
        self.key = try EVPKey.ed448PublicKey(raw: rawRepresentation)
        self.rawRepresentation = rawRepresentation
    }

    /// A key from an already-decoded SPKI key.
    init(subjectPublicKeyInfo parsed: EVPKey) throws(CryptoError) {
        guard parsed.kind == .ed448, let raw = parsed.rawPublicKey() else {
            throw CryptoError(.invalidKey, "SubjectPublicKeyInfo is not an Ed448 key")
        }
        try self.init(rawRepresentation: raw)
    }

    /// The key as DER SubjectPublicKeyInfo (RFC 8410 §4).
    public var derRepresentation: [UInt8] { key.subjectPublicKeyInfo() }

    /// Whether `signature` is a valid Ed448 signature of `message` with an empty context (RFC 8032
    /// §5.2.7; COSE uses no context, RFC 9053 §2.2).
    public func isValidSignature(_ signature: [UInt8], for message: [UInt8]) -> Bool {
        // RFC 8032 §5.2.7 step 1: the signature is exactly 114 bytes.
        guard signature.count == Self.signatureByteCount else { return false }
        return key.verifyPureEdDSA(signature: signature, message: message)
    }

    /// Keys are equal when their encodings are.
    public static func == (lhs: Ed448PublicKey, rhs: Ed448PublicKey) -> Bool {
        lhs.rawRepresentation == rhs.rawRepresentation
    }
}
