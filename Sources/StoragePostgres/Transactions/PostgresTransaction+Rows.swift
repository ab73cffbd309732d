import Foundation
import Storage

/// Rows by key: each insert, delete, compare-and-set and revocation one statement (a user's revocation two). The
/// inserts use `ON CONFLICT DO NOTHING`, so a clash never leaves the transaction aborted and a body may go on.
extension PostgresTransaction {
    func insert(_ record: NewRecord) throws(StorageError) -> Bool {
        // The primary key decides: a row whose key exists inserts nothing (the only unique constraint of these
        // tables); of concurrent inserts of one key, on any node, exactly one inserts.
        func insert(_ table: String, _ columns: String, _ values: [PostgresValue]) throws(StorageError) -> Bool {
            let placeholders = values.indices.map { "$\($0 + 1)" }.joined(separator: ", ")
            return try connection.execute(
                "INSERT INTO \(table) (\(columns)) VALUES (\(placeholders)) ON CONFLICT DO NOTHING", values) == 1
        }
        switch record {
        case .credential(let credential):
            return try insert(
                "credentials", Self.credentialColumns,
                [
                    .bytea(credential.credentialID), .text(credential.userID), .bytea(credential.publicKey),
                    .integer(credential.algorithm), .int8(Int64(credential.signCount)),
                    .bool(credential.uvInitialized), .bool(credential.backupEligible), .bool(credential.backedUp),
                    .text(TransportsColumn.encode(credential.transports)), .bytea(credential.aaguid),
                    .text(credential.attestationFormat), .date(credential.createdAt),
                    .optionalDate(credential.lastUsedAt), .optionalText(credential.name),
                    .optionalText(credential.attestationKeyIdentifier),
                ])
        case .authSession(let session):
            return try insert(
                "auth_sessions", Self.authSessionColumns,
                [
                    .text(session.id), .text(session.clientID), .text(session.realm), .text(session.kind.rawValue),
                    .bytea(session.challenge), .optionalText(session.email), .optionalText(session.phoneNumber),
                    .optionalText(session.username), .optionalText(session.name), .optionalBytea(session.userHandle),
                    .date(session.createdAt), .date(session.expiresAt), .optionalText(session.profile.givenName),
                    .optionalText(session.profile.familyName), .optionalText(session.profile.nickname),
                    .optionalText(session.profile.picture), .optionalText(session.profile.userMetadata),
                ])
        case .refreshToken(let token):
            return try insert(
                "refresh_tokens", Self.refreshTokenColumns,
                [
                    .bytea(token.tokenHash), .text(token.familyID), .text(token.clientID), .text(token.userID),
                    .text(token.scope), .date(token.authTime), .date(token.createdAt), .date(token.absoluteExpiresAt),
                    .date(token.idleExpiresAt), .optionalDate(token.rotatedAt), .optionalDate(token.revokedAt),
                    .optionalText(token.dpopThumbprint), .optionalText(token.audience),
                    .optionalText(AuthenticationMethodsColumn.encode(token.authenticationMethods)),
                    .optionalBytea(token.successorHash), .optionalText(token.organizationID),
                ])
        case .signingKey(let key):
            return try insert(
                "signing_keys", Self.signingKeyColumns,
                [
                    .text(key.kid), .text(key.algorithm), .bytea(key.privateKey), .bytea(key.publicKey),
                    .date(key.createdAt), .optionalDate(key.retiredAt),
                ])
        case .deviceKey(let key):
            return try insert(
                "device_keys", Self.deviceKeyColumns,
                [
                    .text(key.keyID), .text(key.userID), .text(key.deviceID), .text(key.platform),
                    .bytea(key.publicKey), .text(key.status.rawValue), .integer(key.failedAttempts),
                    .optionalDate(key.lockedAt), .date(key.createdAt), .optionalDate(key.lastUsedAt),
                    .optionalDate(key.revokedAt), .optionalText(key.attestation?.platform),
                    .optionalText(key.attestation?.level), .optionalDate(key.attestation?.verifiedAt),
                    .optionalText(key.attestation?.verifiedBootState), .optionalText(key.dpopThumbprint),
                ])
        case .deviceChallenge(let challenge):
            return try insert(
                "device_challenges", Self.deviceChallengeColumns,
                [
                    .text(challenge.challengeID), .text(challenge.keyID), .text(challenge.userID),
                    .bytea(challenge.document), .bytea(challenge.actionHash), .bytea(challenge.action),
                    .date(challenge.createdAt), .date(challenge.expiresAt), .optionalDate(challenge.consumedAt),
                ])
        case .srpSession(let session):
            return try insert(
                "srp_sessions", Self.srpSessionColumns,
                [
                    .text(session.id), .text(session.clientID), .text(session.realm), .text(session.identity),
                    .optionalText(session.userID), .bytea(session.salt), .bytea(session.verifier),
                    .bytea(session.clientPublic), .bytea(session.serverSecret), .bytea(session.serverPublic),
                    .text(session.address), .date(session.createdAt), .date(session.expiresAt),
                ])
        case .deviceEnrolmentNonce(let nonce):
            return try insert(
                "device_enrolment_nonces", Self.deviceEnrolmentNonceColumns,
                [
                    .text(nonce.nonce), .text(nonce.userID), .text(nonce.clientID), .date(nonce.createdAt),
                    .date(nonce.expiresAt),
                ])
        case .dpopProof(let use):
            return try insert(
                "dpop_proofs", "thumbprint, jti, expires_at",
                [.text(use.thumbprint), .text(use.jwtID), .date(use.expiresAt)])
        case .spentToken(let jwtID, let expiresAt):
            return try insert("spent_tokens", "jti, expires_at", [.text(jwtID), .date(expiresAt)])
        case .spentAuthSession(let id, let expiresAt):
            return try insert("spent_auth_sessions", "id, expires_at", [.text(id), .date(expiresAt)])
        case .auditCheckpoint(let checkpoint):
            return try insert(
                "audit_checkpoints", Self.auditCheckpointColumns,
                [.int8(checkpoint.treeSize), .text(checkpoint.note), .date(checkpoint.signedAt)])
        case .serverSecret(let name, let value):
            return try insert("server_secrets", "name, value", [.text(name), .bytea(value)])
        case .organization(let organization):
            return try insert(
                "organizations", Self.organizationColumns,
                [
                    .text(organization.id), .text(organization.name), .optionalText(organization.displayName),
                    .date(organization.createdAt),
                ])
        case .organizationMember(let member):
            return try insert(
                "organization_members", Self.organizationMemberColumns,
                [.text(member.organizationID), .text(member.userID), .date(member.addedAt)])
        case .loginSession(let session):
            return try insert("login_sessions", Self.loginSessionColumns, Self.values(session))
        case .authorizationCode(let code):
            return try insert("authorization_codes", Self.authorizationCodeColumns, Self.values(code))
        }
    }

    func delete(_ key: RecordKey) throws(StorageError) -> Bool {
        // One statement: of concurrent callers, one deletes the row.
        switch key {
        case .credential(let id, let userID):
            try connection.execute(
                "DELETE FROM credentials WHERE credential_id = $1 AND user_id = $2", [.bytea(id), .text(userID)]) == 1
        case .recoveryCode(let userID, let codeHash):
            try connection.execute(
                "DELETE FROM recovery_codes WHERE user_id = $1 AND code_hash = $2", [.text(userID), .bytea(codeHash)])
                == 1
        case .fallbackCounter(let key):
            try connection.execute("DELETE FROM fallback_counters WHERE counter_key = $1", [.text(key)]) == 1
        case .organizationMember(let organizationID, let userID):
            try connection.execute(
                "DELETE FROM organization_members WHERE organization_id = $1 AND user_id = $2",
                [.text(organizationID), .text(userID)]) == 1
        case .organization(let id):
            // One statement: the memberships go with the organization.
            try connection.execute(
                """
                WITH members AS (DELETE FROM organization_members WHERE organization_id = $1)
                DELETE FROM organizations WHERE id = $1
                """, [.text(id)]) == 1
        }
    }

    func replace(_ value: SealedValue, expected: [UInt8], replacement: [UInt8]) throws(StorageError) -> Bool {
        let (table, column, keyColumn, key) =
            switch value {
            case .signingKeyPrivateKey(let kid): ("signing_keys", "private_key", "kid", kid)
            case .passwordVerifier(let userID): ("password_verifiers", "verifier", "user_id", userID)
            case .serverSecret(let name): ("server_secrets", "value", "name", name)
            }
        return try connection.execute(
            "UPDATE \(table) SET \(column) = $1 WHERE \(keyColumn) = $2 AND \(column) = $3",
            [.bytea(replacement), .text(key), .bytea(expected)]) == 1
    }

    func revokeRefreshTokens(_ scope: RefreshTokenRevocation, now: Date) throws(StorageError) -> Int {
        switch scope {
        case .family(let tokenHash):
            // One statement: find the family and revoke every live token of it.
            let found = try one(
                """
                WITH token AS (SELECT family_id FROM refresh_tokens WHERE token_hash = $1),
                revoked AS (
                    UPDATE refresh_tokens SET revoked_at = $2
                    WHERE family_id IN (SELECT family_id FROM token) AND revoked_at IS NULL
                )
                SELECT count(*) FROM token
                """,
                [.bytea(tokenHash), .date(now)]
            ) { (row) throws(StorageError) in try row.integer(0) }
            return Int(found ?? 0)
        case .user(let userID):
            let families = try connection.query(
                "UPDATE refresh_tokens SET revoked_at = $1 WHERE user_id = $2 AND revoked_at IS NULL RETURNING family_id",
                [.date(now), .text(userID)]
            ) { (row) throws(StorageError) in try row.text(0) }
            try connection.execute(
                "UPDATE users SET sessions_revoked_at = $1 WHERE id = $2", [.date(now), .text(userID)])
            return Set(families).count
        case .all:
            // Counted in the database: every live token's family coming back to the client would be a result of
            // millions of rows.
            let families = try one(
                """
                WITH revoked AS (UPDATE refresh_tokens SET revoked_at = $1 WHERE revoked_at IS NULL RETURNING family_id),
                marked AS (UPDATE users SET sessions_revoked_at = $1 RETURNING 1)
                SELECT count(DISTINCT family_id) FROM revoked
                """,
                [.date(now)]
            ) { (row) throws(StorageError) in try row.integer(0) }
            return Int(families ?? 0)
        case .organizationMember(let organizationID, let userID):
            let families = try connection.query(
                """
                UPDATE refresh_tokens SET revoked_at = $1
                WHERE user_id = $2 AND organization_id = $3 AND revoked_at IS NULL RETURNING family_id
                """,
                [.date(now), .text(userID), .text(organizationID)]
            ) { (row) throws(StorageError) in try row.text(0) }
            return Set(families).count
        }
    }
}
