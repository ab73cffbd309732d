import Foundation

/// What passkeyd's own endpoints check of an access token's session beyond its signature and expiry
/// (`StoreReader.sessionStatus`): that its user still exists, that its family was not revoked, and that it was not
/// minted before every session of its user was revoked.
public struct SessionStatus: Sendable, Hashable {
    /// Whether the user exists (a deleted account's tokens buy nothing).
    public var userExists: Bool
    /// When every session of the user was last revoked (`revokeRefreshTokens(userID:)`, `revokeAllRefreshTokens`),
    /// if ever.
    public var sessionsRevokedAt: Date?
    /// Whether a token of the family was revoked (RFC 7009 revocation, reuse detection, recovery, an operator).
    public var familyRevoked: Bool

    /// Creates a status value.
    public init(userExists: Bool, sessionsRevokedAt: Date?, familyRevoked: Bool) {
        self.userExists = userExists
        self.sessionsRevokedAt = sessionsRevokedAt
        self.familyRevoked = familyRevoked
    }
}
