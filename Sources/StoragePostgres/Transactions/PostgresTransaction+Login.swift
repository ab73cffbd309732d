import Storage

extension PostgresTransaction {
    /// The whole login write in one statement instead of the definition's eight or more
    /// (`StoreWriter+LoginCompletion.swift`); the store behaviour suite holds it to the definition's effects.
    /// Each data-modifying step runs only if the one before it returned a row: the session's DELETE (one winner
    /// among concurrent presentations; an expired session is deleted too, and goes no further), the counter's
    /// compare-and-set (WebAuthn L3 §7.2 step 22), then the unlock, the lifted counters, the refresh token and the
    /// security event with its audit queue row (as `appendSecurityEvent`). A duplicate refresh-token hash fails the
    /// whole statement, so nothing is written, as the definition's rollback.
    func completeLogin(_ login: LoginCompletion) throws(StorageError) -> LoginCompletion.Outcome {
        let event = login.event.filledFromOrigin()
        let refresh = login.refreshToken
        let arguments: [PostgresValue] = [
            // $1–$2: the session
            .text(login.sessionID), .date(login.now),
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
        // $23–$39: the security event; $40–$41: the refresh token's amr and successor
        let amr: [PostgresValue] = [
            .optionalText(AuthenticationMethodsColumn.encode(refresh?.authenticationMethods)),
            .optionalBytea(refresh?.successorHash),
        ]
        let steps = try one(Self.completeLoginSQL, arguments + Self.securityEventArguments(event) + amr) {
            (row) throws(StorageError) in
            (live: try row.integer(0), used: try row.integer(1), queued: try row.integer(2))
        }
        guard let steps, steps.live > 0 else { return .sessionGone }
        guard steps.used > 0 else { return .counterRace }
        guard steps.queued == 1 else {
            throw StorageError(.internalFailure, "login write stored the counter but queued \(steps.queued) events")
        }
        return .stored
    }

    /// The counter keys lifted are spelled as `FallbackCounterKey.biometric`, `.identity` and `.recoveryIdentifier`
    /// spell them (`octet_length`: the realm's length in UTF-8 bytes, the database's encoding).
    private static let completeLoginSQL = """
        WITH session AS (
            DELETE FROM auth_sessions WHERE id = $1 RETURNING expires_at
        ), live AS (
            SELECT 1 FROM session WHERE $2 < expires_at
        ), used AS (
            UPDATE credentials SET sign_count = $3, backed_up = $4, last_used_at = $5
            WHERE credential_id = $6 AND sign_count = $7 AND EXISTS (SELECT 1 FROM live)
            RETURNING 1
        ), unlocked AS (
            UPDATE device_keys SET status = 'active', failed_attempts = 0, locked_at = NULL
            WHERE user_id = $8 AND status = 'locked' AND EXISTS (SELECT 1 FROM used)
            RETURNING 1
        ), lifted AS (
            DELETE FROM fallback_counters
            WHERE EXISTS (SELECT 1 FROM used) AND counter_key IN (
                SELECT 'biometric:' || key_id FROM device_keys WHERE user_id = $8
                UNION ALL
                SELECT 'srp_identity:' || octet_length(realm) || ':' || realm || ':' || identity
                FROM password_verifiers WHERE user_id = $8
                UNION ALL
                SELECT 'recovery_identity:' || octet_length(users.realm) || ':' || users.realm || ':' || identifier
                FROM users, unnest(ARRAY[users.email, users.phone_number, users.username]) AS identifier
                WHERE users.id = $8 AND identifier IS NOT NULL)
            RETURNING 1
        ), refresh AS (
            INSERT INTO refresh_tokens (\(refreshTokenColumns))
            SELECT $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20, $21, $22, $40, $41
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
        SELECT (SELECT count(*) FROM live), (SELECT count(*) FROM used), (SELECT count(*) FROM queued)
        """
}
