/// How many expired rows `StoreWriter.purgeExpired(now:limit:)` deleted.
public struct PurgeResult: Sendable, Hashable {
    /// Auth sessions past `expiresAt`.
    public var authSessions: Int
    /// Device challenges past `expiresAt` (consumed or not).
    public var deviceChallenges: Int
    /// Refresh tokens past `absoluteExpiresAt`.
    public var refreshTokens: Int
    /// Remembered DPoP proofs past `expiresAt`.
    public var dpopProofs: Int
    /// Device enrolment nonces past `expiresAt`.
    public var deviceEnrolmentNonces: Int
    /// Spent single-use tokens (`StoreWriter.spendToken`) past `expiresAt`.
    public var spentTokens: Int
    /// Spent sealed auth sessions (`StoreWriter.spendAuthSession`) past their session's `expiresAt`.
    public var spentAuthSessions: Int
    /// Hosted-login sessions past `expiresAt` (ended or not).
    public var loginSessions: Int = 0
    /// Authorization codes past `expiresAt` (redeemed or not).
    public var authorizationCodes: Int = 0

    /// Creates a purge result.
    public init(
        authSessions: Int = 0, deviceChallenges: Int = 0, refreshTokens: Int = 0, dpopProofs: Int = 0,
        deviceEnrolmentNonces: Int = 0, spentTokens: Int = 0, spentAuthSessions: Int = 0
    ) {
        self.authSessions = authSessions
        self.deviceChallenges = deviceChallenges
        self.refreshTokens = refreshTokens
        self.dpopProofs = dpopProofs
        self.deviceEnrolmentNonces = deviceEnrolmentNonces
        self.spentTokens = spentTokens
        self.spentAuthSessions = spentAuthSessions
    }

    /// Each kind's count (one list, so that a new kind cannot be left out of `largest` or `total`).
    private var counts: [Int] {
        [
            authSessions, deviceChallenges, refreshTokens, dpopProofs, deviceEnrolmentNonces, spentTokens,
            spentAuthSessions, loginSessions, authorizationCodes,
        ]
    }

    /// The most rows deleted of any one kind (equal to the limit when more may be left).
    public var largest: Int { counts.max() ?? 0 }

    /// Every row deleted, all kinds together.
    public var total: Int { counts.reduce(0, +) }

    /// The sum of two results, kind by kind.
    public static func + (left: PurgeResult, right: PurgeResult) -> PurgeResult {
        var sum = PurgeResult(
            authSessions: left.authSessions + right.authSessions,
            deviceChallenges: left.deviceChallenges + right.deviceChallenges,
            refreshTokens: left.refreshTokens + right.refreshTokens, dpopProofs: left.dpopProofs + right.dpopProofs,
            deviceEnrolmentNonces: left.deviceEnrolmentNonces + right.deviceEnrolmentNonces,
            spentTokens: left.spentTokens + right.spentTokens,
            spentAuthSessions: left.spentAuthSessions + right.spentAuthSessions)
        sum.loginSessions = left.loginSessions + right.loginSessions
        sum.authorizationCodes = left.authorizationCodes + right.authorizationCodes
        return sum
    }
}
