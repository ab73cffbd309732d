/// Which refresh tokens `StoreWriter.revokeRefreshTokens(_:now:)` revokes.
public enum RefreshTokenRevocation: Sendable, Hashable {
    /// The family of the token with this hash (RFC 7009 §2.1; RFC 9700 §4.14.2 on reuse): 0 when the hash is unknown,
    /// else 1 (even when no token of it was live). `sessionsRevokedAt` is not touched.
    case family(tokenHash: [UInt8])
    /// Every family of the user, whose `sessionsRevokedAt` becomes `now` (`SessionStatus`).
    case user(id: String)
    /// Every family of every user, and every user's `sessionsRevokedAt` (after a restore or a suspected theft).
    case all
    /// Every family of `userID`'s logins in `organizationID` (the member removed); `sessionsRevokedAt` is not
    /// touched: the user's other sessions go on.
    case organizationMember(organizationID: String, userID: String)
}
