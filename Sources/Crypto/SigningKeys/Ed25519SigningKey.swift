/// An Ed25519 private key (RFC 8032), used by software authenticators in tests (COSE alg -8).
public struct Ed25519SigningKey: Sendable {
    /// RFC 8032 §5.1.5: the private key is a 32-byte seed.
    static let seedByteCount = 32

    /// The cached OpenSSL key pair.
    let key: EVPKey
    /// The public half.
    public let publicKey: Ed25519PublicKey

    /// Generates a new key pair from OpenSSL's CSPRNG.
    public init() throws(CryptoError) {
        try self.init(keyPair: EVPKey.generateEd25519())
    }

    /// Imports the 32-byte seed.
    /// - Throws: `.invalidKey` for any other length.
    public init(rawRepresentation: [UInt8]) throws(CryptoError) {
        guard rawRepresentation.count == Self.seedByteCount else {
            throw CryptoError(.invalidKey, "Ed25519 seed must be 32 bytes, got \(rawRepresentation.count)")
        }
        try self.init(keyPair: EVPKey.ed25519PrivateKey(raw: rawRepresentation))
    }

    private init(keyPair: EVPKey) throws(CryptoError) {
        guard let raw = keyPair.rawPublicKey() else {
            throw CryptoError(.invalidKey, "Ed25519 key has no public half")
        }
        self.key = keyPair
        self.publicKey = try Ed25519PublicKey(rawRepresentation: raw)
    }

    /// The 32-byte seed (secret).
    public var rawRepresentation: [UInt8] { key.rawPrivateKey() ?? [] }

    /// The 64-byte signature of `message` (RFC 8032 §5.1.6).
    public func signature(for message: [UInt8]) throws(CryptoError) -> [UInt8] {
        try key.digestSign(message: message, method: nil)
    }
}
