import Foundation

/// The refresh-token rules, in one place: when a presented token rotates, when its presentation is reuse, when it is
/// the retry of a rotation whose answer was lost, and how long a token lives. Pure: it decides from the stored token's state and `now`; the store only guarantees single
/// use (a compare-and-set on "not rotated, not revoked") and persists what was decided.
public struct RefreshTokenPolicy: Sendable, Hashable {
    /// What to do with a presented refresh token.
    public enum Decision: Sendable, Hashable {
        /// Mark the token rotated and issue a successor that expires at `successor`.
        case rotate(successor: RefreshTokenExpiry)
        /// The token was rotated less than `reuseGrace` ago and its successor was never presented: the client's retry
        /// of a rotation whose answer it did not receive (a dropped connection, a 500, a timeout). Supersede that
        /// successor (no longer usable: presenting it is then reuse) and issue another that expires at `successor`,
        /// as a rotation would.
        case retry(successor: RefreshTokenExpiry)
        /// The token was rotated before, and this is no retry: revoke its whole family and refuse.
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
    /// How long after its rotation a token whose successor was never presented may be presented again as a retry
    /// (`tokens.refresh_token_reuse_grace_seconds`); 0: never, every second presentation is reuse.
    public let reuseGrace: TimeInterval

    /// A policy with these lifetimes and retry window (from the `tokens` configuration).
    public init(idleLifetime: TimeInterval, absoluteLifetime: TimeInterval, reuseGrace: TimeInterval = 0) {
        self.idleLifetime = idleLifetime
        self.absoluteLifetime = absoluteLifetime
        self.reuseGrace = reuseGrace
    }

    /// The expiry of the first token of a family, issued at the login at `now`.
    public func firstExpiry(issuedAt now: Date) -> RefreshTokenExpiry {
        let absolute = now.addingTimeInterval(absoluteLifetime)
        return RefreshTokenExpiry(idle: min(now.addingTimeInterval(idleLifetime), absolute), absolute: absolute)
    }

    /// Decides what presenting a token in `state` at `now` does (RFC 6749 §6, RFC 9700 §4.14.2).
    ///
    /// Order matters: revocation first (a revoked family stays revoked), then a spent token (a theft signal even if
    /// it has also expired: revoking again is harmless, missing it is not), then expiry.
    public func decide(_ state: RefreshTokenState, now: Date) -> Decision {
        if state.revokedAt != nil { return .revoked }
        // RFC 9700 §4.14.2: rotation makes every refresh token single use; an invalidated token presented again
        // means the token leaked (the attacker or the client used it first), so the active one is revoked too.
        if let rotatedAt = state.rotatedAt {
            // The same section lets a server accept a retry shortly after: while the successor was never presented,
            // the client may not have received it.
            guard isRetry(state, rotatedAt: rotatedAt, now: now) else { return .reuseDetected }
            return .retry(successor: successorExpiry(state.expiry, now: now))
        }
        guard now < state.expiry.idle, now < state.expiry.absolute else { return .expired }
        return .rotate(successor: successorExpiry(state.expiry, now: now))
    }

    /// Whether presenting a rotated token is the retry of its rotation: within `reuseGrace` of the rotation (a node
    /// whose clock is behind the rotating node's sees a negative age: recent), its successor known and neither
    /// presented nor revoked, and the family not past its absolute end.
    private func isRetry(_ state: RefreshTokenState, rotatedAt: Date, now: Date) -> Bool {
        guard reuseGrace > 0, let successor = state.successor, successor.rotatedAt == nil,
            successor.revokedAt == nil
        else { return false }
        return now.timeIntervalSince(rotatedAt) < reuseGrace && now < state.expiry.absolute
    }

    /// A successor gets a new idle window, never past the family's absolute end.
    private func successorExpiry(_ expiry: RefreshTokenExpiry, now: Date) -> RefreshTokenExpiry {
        RefreshTokenExpiry(idle: min(now.addingTimeInterval(idleLifetime), expiry.absolute), absolute: expiry.absolute)
    }
}
