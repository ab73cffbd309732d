import Foundation
import Storage

/// Device keys, device challenges, security events and housekeeping.
extension PostgresTransaction {

    func updateDeviceKeyState(keyID: String, userID: String, state: DeviceKeyState) throws(StorageError) -> Bool {
        try connection.execute(
            """
            UPDATE device_keys SET status = $1, failed_attempts = $2, locked_at = $3, revoked_at = $4
            WHERE key_id = $5 AND user_id = $6
            """,
            [
                .text(state.status.rawValue), .integer(state.failedAttempts), .optionalDate(state.lockedAt),
                .optionalDate(state.revokedAt), .text(keyID), .text(userID),
            ]) == 1
    }

    func touchDeviceKey(keyID: String, userID: String, at: Date) throws(StorageError) -> Bool {
        try connection.execute(
            "UPDATE device_keys SET last_used_at = $1 WHERE key_id = $2 AND user_id = $3",
            [.date(at), .text(keyID), .text(userID)]) == 1
    }

    func consumeDeviceChallenge(id challengeID: String, keyID: String, userID: String, now: Date)
        throws(StorageError) -> DeviceChallengeConsumption
    {
        // The winner marks the challenge in one statement; only a caller that did not win reads the row, to say
        // why (that read decides nothing: the row is already consumed, expired or someone else's).
        let consumed = try one(
            """
            UPDATE device_challenges SET consumed_at = $1
            WHERE challenge_id = $2 AND key_id = $3 AND user_id = $4 AND consumed_at IS NULL AND $1 < expires_at
            RETURNING \(Self.deviceChallengeColumns)
            """,
            [.date(now), .text(challengeID), .text(keyID), .text(userID)], Self.deviceChallenge)
        if let consumed { return .consumed(consumed) }
        switch DeviceChallengeConsumption.judge(
            try deviceChallenge(id: challengeID), keyID: keyID, userID: userID, now: now)
        {
        case .consumed(let challenge):
            // Only the UPDATE above may claim a win. The rule says the row was consumable, yet the UPDATE (which
            // waits for a concurrent writer of the row) did not match it: never expected; answered as a replay.
            return .alreadyConsumed(challenge)
        case let verdict:
            return verdict
        }
    }

    func appendSecurityEvent(_ given: SecurityEvent) throws(StorageError) -> SecurityEvent {
        let event = given.filledFromOrigin()
        // The seq comes from a sequence (no row lock shared by every appending transaction); the event enters
        // the audit log's queue in the same statement (docs/audit.md), where the sequencer orders what committed.
        let seq = try one(
            """
            WITH event AS (
                INSERT INTO security_events (seq, occurred_at, device_time, kind, user_id, key_id, device_id, \
                client_id, action_hash, outcome, reason_code, attempts, detail, credential_id, family_id, request_id, \
                client_address, node_id)
                VALUES (nextval('security_event_seq'), $1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, \
                $15, $16, $17)
                RETURNING seq)
            INSERT INTO audit_pending (event_seq) SELECT seq FROM event RETURNING event_seq
            """,
            Self.securityEventArguments(event)
        ) { (row) throws(StorageError) in try row.integer(0) }
        guard let seq else { throw StorageError(.internalFailure, "INSERT … RETURNING seq returned no row") }
        var stored = event
        stored.seq = seq
        return stored
    }

    /// The 17 values of a security event's INSERT, in the column order `appendSecurityEvent` and `completeLogin`
    /// name them (after `seq`).
    static func securityEventArguments(_ event: SecurityEvent) -> [PostgresValue] {
        [
            .date(event.occurredAt), .optionalDate(event.deviceTime), .text(event.kind),
            .optionalText(event.userID), .optionalText(event.keyID), .optionalText(event.deviceID),
            .optionalText(event.clientID), .optionalBytea(event.actionHash), .text(event.outcome),
            .optionalText(event.reasonCode), .optionalInteger(event.attempts), .optionalBytea(event.detail),
            .optionalBytea(event.credentialID), .optionalText(event.familyID), .optionalText(event.requestID),
            .optionalText(event.clientAddress), .optionalText(event.nodeID),
        ]
    }

    func consumeDeviceEnrolmentNonce(_ nonce: String, userID: String, now: Date) throws(StorageError)
        -> DeviceEnrolmentNonce?
    {
        // One statement: the delete decides the single winner; an expired nonce is deleted but not handed out.
        let deleted = try connection.query(
            """
            DELETE FROM device_enrolment_nonces WHERE nonce = $1 AND user_id = $2
            RETURNING \(Self.deviceEnrolmentNonceColumns)
            """, [.text(nonce), .text(userID)], Self.deviceEnrolmentNonce)
        guard let stored = deleted.first, now < stored.expiresAt else { return nil }
        return stored
    }

    func purgeExpired(now: Date, limit: Int) throws(StorageError) -> PurgeResult {
        // With several nodes on one database, one purges at a time: the transaction first tries a
        // transaction-scoped advisory lock and, if another node's purge holds it, deletes nothing (an empty result
        // ends that node's housekeeping run; the holder works through the backlog).
        guard try tryNodeLock(.purge) else { return PurgeResult() }
        // Each through its expiry index, oldest first, at most `limit` rows; rows another transaction holds
        // (being consumed right now) are skipped, not waited for.
        func purge(_ table: String, _ key: String, _ column: String) throws(StorageError) -> Int {
            try connection.execute(
                """
                DELETE FROM \(table) WHERE (\(key)) IN (
                    SELECT \(key) FROM \(table) WHERE \(column) <= $1 ORDER BY \(column) LIMIT $2 FOR UPDATE SKIP LOCKED)
                """,
                [.date(now), .integer(max(0, limit))])
        }
        // The commit markers left behind (`CommitMarker`): the driver's bookkeeping, so not in the result (which
        // counts records); leftovers are few (one per closed connection or COMMIT in doubt), a batch keeps up.
        try connection.execute(CommitMarker.purge, [.integer(max(0, limit))])
        var result = PurgeResult(
            authSessions: try purge("auth_sessions", "id", "expires_at")
                + (try purge("srp_sessions", "id", "expires_at")),
            deviceChallenges: try purge("device_challenges", "challenge_id", "expires_at"),
            refreshTokens: try purge("refresh_tokens", "token_hash", "absolute_expires_at"),
            dpopProofs: try purge("dpop_proofs", "thumbprint, jti", "expires_at"),
            deviceEnrolmentNonces: try purge("device_enrolment_nonces", "nonce", "expires_at"),
            spentTokens: try purge("spent_tokens", "jti", "expires_at"),
            spentAuthSessions: try purge("spent_auth_sessions", "id", "expires_at"))
        result.loginSessions = try purge("login_sessions", "id_hash", "expires_at")
        result.authorizationCodes = try purge("authorization_codes", "code_hash", "expires_at")
        return result
    }

    func recordHeartbeat(at: Date) throws(StorageError) {
        try connection.execute(
            "INSERT INTO heartbeat (id, beat_at) VALUES (1, $1) ON CONFLICT (id) DO UPDATE SET beat_at = excluded.beat_at",
            [.date(at)])
    }
}
