import Crypto

/// An opaque refresh token: 32 random bytes, base64url-encoded (43 characters). The store keeps only
/// `hash`, so a database leak yields no usable token.
public struct RefreshToken: Sendable, Hashable {
    /// Random bytes per token: 256 bits.
    public static let byteCount = 32

    /// The opaque string handed to the client.
    public let value: String
    /// SHA-256 of the token's 32 bytes: the lookup key in the store.
    public let hash: [UInt8]

    /// A new token from exactly 32 bytes the caller drew from `SecureRandom.bytes(count: RefreshToken.byteCount)`.
    /// - Throws: `.malformedRefreshToken` for any other length.
    public init(randomBytes: [UInt8]) throws(TokenError) {
        guard randomBytes.count == Self.byteCount else {
            throw TokenError(.malformedRefreshToken, "a refresh token needs \(Self.byteCount) random bytes")
        }
        self.value = Base64URL.encode(randomBytes)
        self.hash = Digest.sha256(randomBytes)
    }

    /// Reads a token a client presented, to compute the hash to look up.
    /// - Throws: `.malformedRefreshToken` unless `presented` is the canonical base64url of 32 bytes
    ///   (no padding, no non-zero trailing bits: `Base64URL.decode` accepts no other spelling), so each token has
    ///   exactly one spelling.
    public init(presented: String) throws(TokenError) {
        guard presented.utf8.count <= 64, let bytes = Base64URL.decode(presented), bytes.count == Self.byteCount else {
            throw TokenError(.malformedRefreshToken, "not a refresh token of ours")
        }
        self.value = presented
        self.hash = Digest.sha256(bytes)
    }
}
