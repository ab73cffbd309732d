import Foundation

/// Refresh-token rotation rules (OAuth 2.0 Security BCP, RFC 9700 §4.14.2): every use rotates the token;
/// presenting a token that was already rotated means it was stolen or replayed, so the whole family is revoked.
public struct RefreshTokenPolicy: Sendable, Hashable {
    /// What to do with a presented refresh token.
    public enum Decision: Sendable, Hashable {
        /// Issue a successor expiring at `successorExpiresAt`, mark this token consumed.
        case rotate(successorExpiresAt: Date)
        /// The token was already rotated: revoke the family and refuse.
        case reuseDetected
        /// Idle or absolute lifetime is over: refuse.
        case expired
        /// The family was revoked: refuse.
        case revoked
    }

    /// A token unused for this long expires (default 14 days).
    public var idleLifetime: TimeInterval
    /// No token of a family lives past this age of the family (default 30 days).
    public var absoluteLifetime: TimeInterval

    /// The defaults: 14 days idle, 30 days absolute.
    public init(idleLifetime: TimeInterval = 14 * 86_400, absoluteLifetime: TimeInterval = 30 * 86_400) {
        self.idleLifetime = idleLifetime
        self.absoluteLifetime = absoluteLifetime
    }

    /// When a token issued at `issuedAt` in a family created at `familyCreatedAt` expires.
    public func expiry(familyCreatedAt: Date, issuedAt: Date) -> Date {
        min(issuedAt.addingTimeInterval(idleLifetime), familyCreatedAt.addingTimeInterval(absoluteLifetime))
    }

    /// Decides, purely; the store applies the decision atomically with the read of `state`.
    ///
    /// Order matters: revocation first (a revoked family stays revoked), then reuse (a consumed token is a
    /// theft signal even if it has also expired: revoking again is harmless, missing it is not), then expiry.
    public func decide(_ state: RefreshTokenState, now: Date) -> Decision {
        if state.familyRevokedAt != nil { return .revoked }
        // RFC 9700 §4.14.2: an invalidated refresh token presented again ⇒ revoke the active one too.
        if state.consumedAt != nil { return .reuseDetected }
        let expiresAt = expiry(familyCreatedAt: state.familyCreatedAt, issuedAt: state.issuedAt)
        guard now < expiresAt else { return .expired }
        return .rotate(successorExpiresAt: expiry(familyCreatedAt: state.familyCreatedAt, issuedAt: now))
    }
}
