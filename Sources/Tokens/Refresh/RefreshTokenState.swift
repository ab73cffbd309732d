import Foundation

/// What the store knows about a presented refresh token, as input to `RefreshTokenPolicy.decide`.
public struct RefreshTokenState: Sendable, Hashable {
    /// When the token expires, as fixed when it was issued.
    public var expiry: RefreshTokenExpiry
    /// When this token was exchanged for a successor, if it already was.
    public var rotatedAt: Date?
    /// When the token's family was revoked (logout, RFC 7009 revocation, reuse detected), if it was.
    public var revokedAt: Date?

    /// Collects the state.
    public init(expiry: RefreshTokenExpiry, rotatedAt: Date? = nil, revokedAt: Date? = nil) {
        self.expiry = expiry
        self.rotatedAt = rotatedAt
        self.revokedAt = revokedAt
    }
}
