import Foundation

/// What the store knows about a presented refresh token and its family, as input to `RefreshTokenPolicy.decide`.
public struct RefreshTokenState: Sendable, Hashable {
    /// When the family's first token was issued (the login): the absolute lifetime counts from here.
    public var familyCreatedAt: Date
    /// When this token was issued: the idle lifetime counts from here.
    public var issuedAt: Date
    /// When this token was exchanged for a successor, if it already was.
    public var consumedAt: Date?
    /// When the family was revoked (logout, RFC 7009 revocation, reuse detected), if it was.
    public var familyRevokedAt: Date?

    /// Collects the state.
    public init(familyCreatedAt: Date, issuedAt: Date, consumedAt: Date? = nil, familyRevokedAt: Date? = nil) {
        self.familyCreatedAt = familyCreatedAt
        self.issuedAt = issuedAt
        self.consumedAt = consumedAt
        self.familyRevokedAt = familyRevokedAt
    }
}
