import Foundation

/// What the store knows about a presented refresh token, as input to `RefreshTokenPolicy.decide`.
public struct RefreshTokenState: Sendable, Hashable {
    /// What the store knows about the token a rotated token was exchanged for: whether the client has shown that it
    /// holds it (presenting it rotates it) and whether it was revoked.
    public struct Successor: Sendable, Hashable {
        /// When the successor was itself exchanged for a successor (or superseded), if it was.
        public var rotatedAt: Date?
        /// When the successor (its family) was revoked, if it was.
        public var revokedAt: Date?

        /// Collects the state.
        public init(rotatedAt: Date? = nil, revokedAt: Date? = nil) {
            self.rotatedAt = rotatedAt
            self.revokedAt = revokedAt
        }
    }

    /// When the token expires, as fixed when it was issued.
    public var expiry: RefreshTokenExpiry
    /// When this token was exchanged for a successor, if it already was.
    public var rotatedAt: Date?
    /// When the token's family was revoked (logout, RFC 7009 revocation, reuse detected), if it was.
    public var revokedAt: Date?
    /// The token it was exchanged for (the newest, when a retry issued another), when the store knows it: `nil` for
    /// a token not rotated, rotated before successors were recorded, or itself superseded by a retry.
    public var successor: Successor?

    /// Collects the state.
    public init(
        expiry: RefreshTokenExpiry, rotatedAt: Date? = nil, revokedAt: Date? = nil, successor: Successor? = nil
    ) {
        self.expiry = expiry
        self.rotatedAt = rotatedAt
        self.revokedAt = revokedAt
        self.successor = successor
    }
}
