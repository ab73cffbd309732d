import Foundation
import Storage

extension PostgresTransaction {
    /// A login's read in one statement instead of the definition's two (`StoreReader+LoginLookup.swift`); same
    /// answers (the store behaviour suite runs both).
    func loginCredential(id credentialID: [UInt8]?) throws(StorageError) -> LoginCredential {
        guard let credentialID else { return LoginCredential(credential: nil, user: nil) }
        let found = try one(Self.loginCredentialSQL, [.bytea(credentialID)]) { (row) throws(StorageError) in
            let userRow = row.skipping(Self.loginCredentialColumnCount)
            return LoginCredential(
                credential: try Self.credential(row), user: try userRow.isNull(0) ? nil : try Self.user(userRow))
        }
        return found ?? LoginCredential(credential: nil, user: nil)
    }

    /// The number of columns of a credential (where its user's begin in `loginCredentialSQL`).
    private static let loginCredentialColumnCount = Int32(columnNames(credentialColumns).count)

    private static let loginCredentialSQL = """
        SELECT \(qualified(credentialColumns, "c")), \(qualified(userColumns, "u"))
        FROM credentials c
        LEFT JOIN users u ON u.id = c.user_id
        WHERE c.credential_id = $1
        """

    /// The whole login write in one statement instead of the definition's eight or more
    /// (`StoreWriter+LoginCompletion.swift`); the store behaviour suite holds it to the definition's effects.
    /// Each data-modifying step runs only if the one before it returned a row: the session's spent record, inserted
    /// unless present (one winner among concurrent presentations, on any node; the service checked the sealed
    /// expiry before), the counter's
    /// compare-and-set (WebAuthn L3 §7.2 step 22), then the unlock, the lifted counters, the refresh token and the
    /// security event with its audit queue row (as `appendSecurityEvent`). A duplicate refresh-token hash fails the
    /// whole statement, so nothing is written, as the definition's rollback.
    func completeLogin(_ login: LoginCompletion) throws(StorageError) -> LoginCompletion.Outcome {
        let event = login.event.filledFromOrigin()
        let refresh = login.refreshToken
        let arguments: [PostgresValue] = [
            // $1–$2: the session's spent record
            .text(login.sessionID), .date(login.sessionExpiresAt),
            // $3–$7: the credential's compare-and-set
            .int8(Int64(login.use.newSignCount)), .bool(login.use.backedUp), .date(login.use.usedAt),
            .bytea(login.use.credentialID), .int8(Int64(login.use.expectedSignCount)),
            // $8: the user
            .text(login.userID),
            // $9–$22: the refresh token, when there is one
            .bool(refresh != nil), .optionalBytea(refresh?.tokenHash), .optionalText(refresh?.familyID),
            .optionalText(refresh?.clientID), .optionalText(refresh?.userID), .optionalText(refresh?.scope),
            .optionalDate(refresh?.authTime), .optionalDate(refresh?.createdAt),
            .optionalDate(refresh?.absoluteExpiresAt), .optionalDate(refresh?.idleExpiresAt),
            .optionalDate(refresh?.rotatedAt), .optionalDate(refresh?.revokedAt),
            .optionalText(refresh?.dpopThumbprint), .optionalText(refresh?.audience),
        ]
        // $23–$39: the security event; $40–$42: the refresh token's amr, successor and organization
        let amr: [PostgresValue] = [
            .optionalText(AuthenticationMethodsColumn.encode(refresh?.authenticationMethods)),
            .optionalBytea(refresh?.successorHash), .optionalText(refresh?.organizationID),
        ]
        // Without a hosted login's records the statement is the whole operation: COMMIT may go with it.
        if commitsWithOperation, login.loginSession == nil, login.authorizationCode == nil {
            connection.commitWithNextStatement()
        }
        let steps = try one(Self.completeLoginSQL, arguments + Self.securityEventArguments(event) + amr) {
            (row) throws(StorageError) in
            (spent: try row.integer(0), used: try row.integer(1), queued: try row.integer(2))
        }
        guard let steps, steps.spent > 0 else { return .sessionGone }
        guard steps.used > 0 else { return .counterRace }
        guard steps.queued == 1 else {
            throw StorageError(.internalFailure, "login write stored the counter but queued \(steps.queued) events")
        }
        // A hosted login's session and code: in the same transaction, after the statement that decided the login.
        try insertHostedLogin(
            session: login.loginSession, code: login.authorizationCode, replacing: login.replacedLoginSession)
        return .stored
    }

    /// The counter keys lifted are spelled as `FallbackCounterKey.biometric`, `.identity` and `.recoveryIdentifier`
    /// spell them (`octet_length`: the realm's length in UTF-8 bytes, the database's encoding). They are collected
    /// into an array first (`= ANY (ARRAY(…))`, an InitPlan) and the counters found by their primary key: `IN (…)`
    /// made PostgreSQL build a hash table of the keys and a nested loop on every login, for a user who has, in
    /// the common case, no counter at all.
    private static let completeLoginSQL = """
        WITH spent AS (
            INSERT INTO spent_auth_sessions (id, expires_at) VALUES ($1, $2) ON CONFLICT DO NOTHING RETURNING 1
        ), used AS (
            UPDATE credentials SET sign_count = $3, backed_up = $4, last_used_at = $5
            WHERE credential_id = $6 AND sign_count = $7 AND EXISTS (SELECT 1 FROM spent)
            RETURNING 1
        ), unlocked AS (
            UPDATE device_keys SET status = 'active', failed_attempts = 0, locked_at = NULL
            WHERE user_id = $8 AND status = 'locked' AND EXISTS (SELECT 1 FROM used)
            RETURNING 1
        ), lifted AS (
            DELETE FROM fallback_counters
            WHERE EXISTS (SELECT 1 FROM used) AND counter_key = ANY (ARRAY(
                SELECT 'biometric:' || key_id FROM device_keys WHERE user_id = $8
                UNION ALL
                SELECT 'srp_identity:' || octet_length(realm) || ':' || realm || ':' || identity
                FROM password_verifiers WHERE user_id = $8
                UNION ALL
                SELECT 'recovery_identity:' || octet_length(users.realm) || ':' || users.realm || ':' || identifier
                FROM users, unnest(ARRAY[users.email, users.phone_number, users.username]) AS identifier
                WHERE users.id = $8 AND identifier IS NOT NULL))
            RETURNING 1
        ), refresh AS (
            INSERT INTO refresh_tokens (\(refreshTokenColumns))
            SELECT $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20, $21, $22, $40, $41, $42
            WHERE $9 AND EXISTS (SELECT 1 FROM used)
            RETURNING 1
        ), event AS (
            INSERT INTO security_events (seq, occurred_at, device_time, kind, user_id, key_id, device_id, \
            client_id, action_hash, outcome, reason_code, attempts, detail, credential_id, family_id, request_id, \
            client_address, node_id)
            SELECT nextval('security_event_seq'), $23, $24, $25, $26, $27, $28, $29, $30, $31, $32, $33, $34, $35, \
            $36, $37, $38, $39
            WHERE EXISTS (SELECT 1 FROM used)
            RETURNING seq
        ), queued AS (
            INSERT INTO audit_pending (event_seq) SELECT seq FROM event RETURNING event_seq
        )
        SELECT (SELECT count(*) FROM spent), (SELECT count(*) FROM used), (SELECT count(*) FROM queued)
        """
}
