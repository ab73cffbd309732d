import Foundation

/// The named refresh-token revocations, each `revokeRefreshTokens(_:now:)` of its scope.
extension StoreWriter {
    /// Revokes every token of the family that `tokenHash` belongs to (RFC 7009 §2.1: revoking a refresh token may
    /// revoke its whole grant; RFC 9700 §4.14.2: what reuse of a rotated token does). Returns false when no token
    /// has that hash (RFC 7009 §2.2: still a 200).
    public func revokeRefreshTokenFamily(tokenHash: [UInt8], now: Date) throws(StorageError) -> Bool {
        try revokeRefreshTokens(.family(tokenHash: tokenHash), now: now) > 0
    }

    /// Revokes at `now` every unrevoked refresh token of `userID` (all its families: the user's sessions), and
    /// records `now` as the instant from which the user's access tokens are refused by passkeyd's own endpoints
    /// (`SessionStatus.sessionsRevokedAt`); the user's hosted-login sessions end too. Returns how many families had
    /// a live token.
    public func revokeRefreshTokens(userID: String, now: Date) throws(StorageError) -> Int {
        _ = try endLoginSessions(userID: userID, at: now)
        return try revokeRefreshTokens(.user(id: userID), now: now)
    }

    /// Revokes at `now` every unrevoked refresh token of every user (an operator's answer to a restore that brought
    /// rotated tokens back, or to a suspected theft at large), and records `now` for every user as
    /// `revokeRefreshTokens(userID:now:)` does, and ends every hosted-login session. Returns how many families had a
    /// live token.
    public func revokeAllRefreshTokens(now: Date) throws(StorageError) -> Int {
        _ = try endLoginSessions(userID: nil, at: now)
        return try revokeRefreshTokens(.all, now: now)
    }
}
