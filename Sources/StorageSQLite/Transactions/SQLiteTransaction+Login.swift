import Foundation
import Storage

/// The login write in six statements, each prepared once per connection (static SQL, so the statement cache
/// keeps it), instead of the definition's eleven or more with their row decoding
/// (`StoreWriter+LoginCompletion.swift`); the store behaviour suite holds it to the definition's answers and effects.
extension SQLiteTransaction {
    /// Spends the session (a primary key decides between concurrent presentations), then compare-and-sets the
    /// counter (WebAuthn L3 §7.2 step 22), then unlocks the user's locked device keys and lifts the login's locks
    /// (each one statement that finds nothing in the common case, instead of reading the user, their device keys
    /// and their password verifier), then stores the refresh token, the event and a hosted login's session and code. A refresh token whose hash exists
    /// throws `.conflict(.refreshTokenHash)` after the earlier steps, as the definition does; the body's savepoint
    /// takes them back.
    func completeLogin(_ login: LoginCompletion) throws(StorageError) -> LoginCompletion.Outcome {
        let spent = try database.execute(
            Self.spendSessionSQL, [.text(login.sessionID), .date(login.sessionExpiresAt)])
        guard spent == 1 else { return .sessionGone }
        // Returned, not thrown, so the session's spending still commits.
        guard try recordCredentialUse(login.use) else { return .counterRace }
        try database.execute(Self.unlockDeviceKeysSQL, [.text(login.userID)])
        try database.execute(Self.liftLoginLocksSQL, [.text(login.userID)])
        if let token = login.refreshToken {
            guard try database.execute(Self.insertRefreshTokenSQL, Self.refreshTokenValues(token)) == 1 else {
                throw .conflict(.refreshTokenHash)
            }
        }
        _ = try appendSecurityEvent(login.event)
        // A hosted login's session and code (`HostedLogin.complete`), as the definition stores them.
        try insertHostedLogin(
            session: login.loginSession, code: login.authorizationCode, replacing: login.replacedLoginSession)
        return .stored
    }

    private static let spendSessionSQL =
        "INSERT INTO spent_auth_sessions (id, expires_at) VALUES (?, ?) ON CONFLICT DO NOTHING"

    /// `unlockDeviceKeys`: every locked key of the user active, its failures and lock time cleared (a locked key
    /// keeps its NULL `revoked_at`).
    private static let unlockDeviceKeysSQL = """
        UPDATE device_keys SET status = 'active', failed_attempts = 0, locked_at = NULL
        WHERE user_id = ? AND status = 'locked'
        """

    /// `liftLoginLocks(userID:includingPasswordLock: true)`: the counters spelled as `FallbackCounterKey.biometric`
    /// (every key of the user), `.identity` (their SRP identity) and `.recoveryIdentifier` (each identifier) spell
    /// them, each looked up by its primary key; `length(CAST(realm AS BLOB))` is the realm's length in UTF-8 bytes
    /// (the database's encoding).
    private static let liftLoginLocksSQL = """
        DELETE FROM fallback_counters WHERE counter_key IN (
            SELECT 'biometric:' || key_id FROM device_keys WHERE user_id = ?1
            UNION ALL
            SELECT 'srp_identity:' || length(CAST(realm AS BLOB)) || ':' || realm || ':' || identity
            FROM password_verifiers WHERE user_id = ?1
            UNION ALL
            SELECT 'recovery_identity:' || length(CAST(realm AS BLOB)) || ':' || realm || ':' || email
            FROM users WHERE id = ?1 AND email IS NOT NULL
            UNION ALL
            SELECT 'recovery_identity:' || length(CAST(realm AS BLOB)) || ':' || realm || ':' || phone_number
            FROM users WHERE id = ?1 AND phone_number IS NOT NULL
            UNION ALL
            SELECT 'recovery_identity:' || length(CAST(realm AS BLOB)) || ':' || realm || ':' || username
            FROM users WHERE id = ?1 AND username IS NOT NULL)
        """

    /// `insert(.refreshToken)`'s statement, spelled once.
    private static let insertRefreshTokenSQL =
        "INSERT INTO refresh_tokens (\(refreshTokenColumns)) VALUES "
        + "(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING"

    /// A refresh token's values in `refreshTokenColumns` order.
    static func refreshTokenValues(_ token: RefreshToken) -> [SQLiteValue] {
        [
            .blob(token.tokenHash), .text(token.familyID), .text(token.clientID), .text(token.userID),
            .text(token.scope), .date(token.authTime), .date(token.createdAt), .date(token.absoluteExpiresAt),
            .date(token.idleExpiresAt), .optionalDate(token.rotatedAt), .optionalDate(token.revokedAt),
            .optionalText(token.dpopThumbprint), .optionalText(token.audience),
            .optionalText(AuthenticationMethodsColumn.encode(token.authenticationMethods)),
            .optionalBlob(token.successorHash), .optionalText(token.organizationID),
        ]
    }
}
