import Foundation

/// The refresh-token rules, in one place: when a presented token rotates, when its presentation is reuse, and how
/// long a token lives. Pure: it decides from the stored token's state and `now`; the store only guarantees single
/// use (a compare-and-set on "not rotated, not revoked") and persists what was decided.
public struct RefreshTokenPolicy: Sendable, Hashable {
    /// What to do with a presented refresh token.
    public enum Decision: Sendable, Hashable {
        /// Mark the token rotated and issue a successor that expires at `successor`.
        case rotate(successor: RefreshTokenExpiry)
        /// The token was rotated before: revoke its whole family and refuse.
        case reuseDetected
        /// The token's idle or absolute lifetime is over: refuse, change nothing.
        case expired
        /// The token's family was revoked: refuse, change nothing.
        case revoked
    }

    /// How long a token may go unused: a rotation opens a new idle window of this length.
    public let idleLifetime: TimeInterval
    /// How long a family lives after the login that started it: no rotation extends it.
    public let absoluteLifetime: TimeInterval

    /// A policy with these lifetimes (from the `tokens` configuration).
    public init(idleLifetime: TimeInterval, absoluteLifetime: TimeInterval) {
        self.idleLifetime = idleLifetime
        self.absoluteLifetime = absoluteLifetime
    }

    /// The expiry of the first token of a family, issued at the login at `now`.
    public func firstExpiry(issuedAt now: Date) -> RefreshTokenExpiry {
        let absolute = now.addingTimeInterval(absoluteLifetime)
        return RefreshTokenExpiry(idle: min(now.addingTimeInterval(idleLifetime), absolute), absolute: absolute)
    }

    /// Decides what presenting a token in `state` at `now` does (RFC 6749 §6, RFC 9700 §4.14.2).
    ///
    /// Order matters: revocation first (a revoked family stays revoked), then reuse (a spent token is a theft
    /// signal even if it has also expired: revoking again is harmless, missing it is not), then expiry.
    public func decide(_ state: RefreshTokenState, now: Date) -> Decision {
        if state.revokedAt != nil { return .revoked }
        // RFC 9700 §4.14.2: rotation makes every refresh token single use; an invalidated token presented again
        // means the token leaked (the attacker or the client used it first), so the active one is revoked too.
        if state.rotatedAt != nil { return .reuseDetected }
        guard now < state.expiry.idle, now < state.expiry.absolute else { return .expired }
        // The successor gets a new idle window, never past the family's absolute end.
        return .rotate(
            successor: RefreshTokenExpiry(
                idle: min(now.addingTimeInterval(idleLifetime), state.expiry.absolute), absolute: state.expiry.absolute
            ))
    }
}
