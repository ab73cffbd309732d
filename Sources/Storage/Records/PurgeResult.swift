/// How many expired rows `StoreWriter.purgeExpired(now:)` deleted.
public struct PurgeResult: Sendable, Hashable {
    /// Auth sessions past `expiresAt`.
    public var authSessions: Int
    /// Device challenges past `expiresAt` (consumed or not).
    public var deviceChallenges: Int
    /// Refresh tokens past `absoluteExpiresAt`.
    public var refreshTokens: Int

    /// Creates a purge result.
    public init(authSessions: Int = 0, deviceChallenges: Int = 0, refreshTokens: Int = 0) {
        self.authSessions = authSessions
        self.deviceChallenges = deviceChallenges
        self.refreshTokens = refreshTokens
    }
}
