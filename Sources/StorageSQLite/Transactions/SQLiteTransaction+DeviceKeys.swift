import Foundation
import Storage

/// Device keys, device challenges, security events and housekeeping.
extension SQLiteTransaction {

    func updateDeviceKeyState(keyID: String, userID: String, state: DeviceKeyState) throws(StorageError) -> Bool {
        try database.execute(
            """
            UPDATE device_keys SET status = ?, failed_attempts = ?, locked_at = ?, revoked_at = ?
            WHERE key_id = ? AND user_id = ?
            """,
            [
                .text(state.status.rawValue), .integer(Int64(state.failedAttempts)), .optionalDate(state.lockedAt),
                .optionalDate(state.revokedAt), .text(keyID), .text(userID),
            ]) == 1
    }

    func touchDeviceKey(keyID: String, userID: String, at: Date) throws(StorageError) -> Bool {
        try database.execute(
            "UPDATE device_keys SET last_used_at = ? WHERE key_id = ? AND user_id = ?",
            [.date(at), .text(keyID), .text(userID)]) == 1
    }

    func consumeDeviceChallenge(id challengeID: String, keyID: String, userID: String, now: Date)
        throws(StorageError) -> DeviceChallengeConsumption
    {
        // Read and mark inside the writer's transaction: no other writer runs in between, so the first wins.
        let verdict = DeviceChallengeConsumption.judge(
            try deviceChallenge(id: challengeID), keyID: keyID, userID: userID, now: now)
        if case .consumed = verdict {
            try database.execute(
                "UPDATE device_challenges SET consumed_at = ? WHERE challenge_id = ? AND consumed_at IS NULL",
                [.date(now), .text(challengeID)])
        }
        return verdict
    }

    func appendSecurityEvent(_ given: SecurityEvent) throws(StorageError) -> SecurityEvent {
        let event = given.filledFromOrigin()
        let seq = try one(
            """
            INSERT INTO security_events (occurred_at, device_time, kind, user_id, key_id, device_id, client_id, \
            action_hash, outcome, reason_code, attempts, detail, credential_id, family_id, request_id, \
            client_address, node_id) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            RETURNING seq
            """,
            [
                .date(event.occurredAt), .optionalDate(event.deviceTime), .text(event.kind),
                .optionalText(event.userID), .optionalText(event.keyID), .optionalText(event.deviceID),
                .optionalText(event.clientID), .optionalBlob(event.actionHash), .text(event.outcome),
                .optionalText(event.reasonCode), .optionalInteger(event.attempts), .optionalBlob(event.detail),
                .optionalBlob(event.credentialID), .optionalText(event.familyID), .optionalText(event.requestID),
                .optionalText(event.clientAddress), .optionalText(event.nodeID),
            ]
        ) { (row) throws(StorageError) in try row.integer(0) }
        guard let seq else { throw StorageError(.internalFailure, "INSERT … RETURNING seq returned no row") }
        // Committed, the event is in the audit log's queue: the events after `audit_tree.last_event_seq`
        // (SQLiteSchema v4), so the login pays for this one INSERT only.
        var stored = event
        stored.seq = seq
        return stored
    }

    func consumeDeviceEnrolmentNonce(_ nonce: String, userID: String, now: Date) throws(StorageError)
        -> DeviceEnrolmentNonce?
    {
        // One statement: the delete decides the single winner; an expired nonce is deleted but not handed out.
        let deleted = try database.query(
            "DELETE FROM device_enrolment_nonces WHERE nonce = ? AND user_id = ? RETURNING "
                + Self.deviceEnrolmentNonceColumns, [.text(nonce), .text(userID)], Self.deviceEnrolmentNonce)
        guard let stored = deleted.first, now < stored.expiresAt else { return nil }
        return stored
    }

    func purgeExpired(now: Date, limit: Int) throws(StorageError) -> PurgeResult {
        // Each through its expiry index, oldest first, at most `limit` rows.
        func purge(_ table: String, _ column: String) throws(StorageError) -> Int {
            try database.execute(
                "DELETE FROM \(table) WHERE rowid IN (SELECT rowid FROM \(table) WHERE \(column) <= ? ORDER BY \(column) LIMIT ?)",
                [.date(now), .integer(Int64(max(0, limit)))])
        }
        var result = PurgeResult(
            authSessions: try purge("auth_sessions", "expires_at") + (try purge("srp_sessions", "expires_at")),
            deviceChallenges: try purge("device_challenges", "expires_at"),
            refreshTokens: try purge("refresh_tokens", "absolute_expires_at"),
            dpopProofs: try purge("dpop_proofs", "expires_at"),
            deviceEnrolmentNonces: try purge("device_enrolment_nonces", "expires_at"),
            spentTokens: try purge("spent_tokens", "expires_at"),
            spentAuthSessions: try purge("spent_auth_sessions", "expires_at"))
        result.loginSessions = try purge("login_sessions", "expires_at")
        result.authorizationCodes = try purge("authorization_codes", "expires_at")
        return result
    }

    func recordHeartbeat(at: Date) throws(StorageError) {
        // One row, overwritten in place: the page it lives on is rewritten, nothing grows.
        try database.execute(
            "INSERT INTO heartbeat (id, beat_at) VALUES (1, ?) "
                + "ON CONFLICT (id) DO UPDATE SET beat_at = excluded.beat_at",
            [.date(at)])
    }
}
