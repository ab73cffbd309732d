import Foundation

/// One refresh token of a rotation family. Only a hash of the token is stored. What presenting it does is decided
/// by `Tokens.RefreshTokenPolicy` from these fields; the store only guarantees single use
/// (`StoreWriter.markRefreshTokenRotated`).
public struct RefreshToken: Sendable, Hashable {
    /// SHA-256 (or another server-chosen digest) of the token string; the lookup key.
    public var tokenHash: [UInt8]
    /// The family: every token obtained by rotating from one login shares it.
    public var familyID: String
    /// The client the token was issued to.
    public var clientID: String
    /// The subject.
    public var userID: String
    /// The granted scope (space-separated, RFC 6749 §3.3).
    public var scope: String
    /// When the user authenticated (the `auth_time` claim), carried across rotations.
    public var authTime: Date
    /// When the token was issued.
    public var createdAt: Date
    /// The family's hard end: no rotation extends it.
    public var absoluteExpiresAt: Date
    /// The end of this token's idle window.
    public var idleExpiresAt: Date
    /// When this token was exchanged for its successor; a second presentation is reuse.
    public var rotatedAt: Date?
    /// When the token (its family) was revoked.
    public var revokedAt: Date?
    /// The RFC 7638 thumbprint of the DPoP key the family is bound to (RFC 9449 §5), carried across rotations:
    /// presenting the token then needs a proof by that key.
    public var dpopThumbprint: String?
    /// The API the family was granted for (the access tokens' audience), carried across rotations: a refresh may
    /// narrow within it, never widen. `nil` for families from before APIs existed (the issuer's own API).
    public var audience: String?
    /// The RFC 8176 `amr` of the login that started the family (e.g. `["hwk", "user"]`, `["pwd"]`), carried across
    /// rotations so every token of the family says how its user logged in. `nil` for families from before it was
    /// stored (schema v12): unknown.
    public var authenticationMethods: [String]?
    /// The hash of the token this one was exchanged for (the newest, when a retry within the grace window issued
    /// another: `StoreWriter.reissueRefreshToken`). `nil` while the token is not rotated, for a token rotated
    /// before schema v14, and for a successor a retry superseded (presenting it is then reuse).
    public var successorHash: [UInt8]?
    /// The organization the family's login was made in (`org_id`), carried across rotations so every token of the
    /// family says it; `nil` for a login in no organization, and for families from before schema v17.
    public var organizationID: String?

    /// Creates a refresh-token record.
    public init(
        tokenHash: [UInt8], familyID: String, clientID: String, userID: String, scope: String, authTime: Date,
        createdAt: Date, absoluteExpiresAt: Date, idleExpiresAt: Date, rotatedAt: Date? = nil, revokedAt: Date? = nil,
        dpopThumbprint: String? = nil, audience: String? = nil, authenticationMethods: [String]? = nil,
        successorHash: [UInt8]? = nil, organizationID: String? = nil
    ) {
        self.tokenHash = tokenHash
        self.familyID = familyID
        self.clientID = clientID
        self.userID = userID
        self.scope = scope
        self.authTime = authTime
        self.createdAt = createdAt
        self.absoluteExpiresAt = absoluteExpiresAt
        self.idleExpiresAt = idleExpiresAt
        self.rotatedAt = rotatedAt
        self.revokedAt = revokedAt
        self.dpopThumbprint = dpopThumbprint
        self.audience = audience
        self.authenticationMethods = authenticationMethods
        self.successorHash = successorHash
        self.organizationID = organizationID
    }
}
