import Foundation
import Storage

/// Rows by key: each insert, delete, compare-and-set and revocation one statement (the revocations of a user or of
/// everyone three: count, revoke, mark the users).
extension SQLiteTransaction {
    func insert(_ record: NewRecord) throws(StorageError) -> Bool {
        // The primary key decides: a row whose key exists inserts nothing (the only unique constraint of these tables).
        func insert(_ table: String, _ columns: String, _ values: [SQLiteValue]) throws(StorageError) -> Bool {
            let placeholders = Array(repeating: "?", count: values.count).joined(separator: ", ")
            return try database.execute(
                "INSERT INTO \(table) (\(columns)) VALUES (\(placeholders)) ON CONFLICT DO NOTHING", values) == 1
        }
        switch record {
        case .credential(let credential):
            return try insert(
                "credentials", Self.credentialColumns,
                [
                    .blob(credential.credentialID), .text(credential.userID), .blob(credential.publicKey),
                    .integer(Int64(credential.algorithm)), .integer(Int64(credential.signCount)),
                    .bool(credential.uvInitialized), .bool(credential.backupEligible), .bool(credential.backedUp),
                    .text(TransportsColumn.encode(credential.transports)), .blob(credential.aaguid),
                    .text(credential.attestationFormat), .date(credential.createdAt),
                    .optionalDate(credential.lastUsedAt), .optionalText(credential.name),
                    .optionalText(credential.attestationKeyIdentifier),
                ])
        case .authSession(let session):
            return try insert(
                "auth_sessions", Self.authSessionColumns,
                [
                    .text(session.id), .text(session.clientID), .text(session.realm), .text(session.kind.rawValue),
                    .blob(session.challenge), .optionalText(session.email), .optionalText(session.phoneNumber),
                    .optionalText(session.username), .optionalText(session.name), .optionalBlob(session.userHandle),
                    .date(session.createdAt), .date(session.expiresAt), .optionalText(session.profile.givenName),
                    .optionalText(session.profile.familyName), .optionalText(session.profile.nickname),
                    .optionalText(session.profile.picture), .optionalText(session.profile.userMetadata),
                ])
        case .refreshToken(let token):
            return try insert("refresh_tokens", Self.refreshTokenColumns, Self.refreshTokenValues(token))
        case .signingKey(let key):
            return try insert(
                "signing_keys", Self.signingKeyColumns,
                [
                    .text(key.kid), .text(key.algorithm), .blob(key.privateKey), .blob(key.publicKey),
                    .date(key.createdAt), .optionalDate(key.retiredAt),
                ])
        case .deviceKey(let key):
            return try insert(
                "device_keys", Self.deviceKeyColumns,
                [
                    .text(key.keyID), .text(key.userID), .text(key.deviceID), .text(key.platform),
                    .blob(key.publicKey), .text(key.status.rawValue), .integer(Int64(key.failedAttempts)),
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
                    .blob(challenge.document), .blob(challenge.actionHash), .blob(challenge.action),
                    .date(challenge.createdAt), .date(challenge.expiresAt), .optionalDate(challenge.consumedAt),
                ])
        case .srpSession(let session):
            return try insert(
                "srp_sessions", Self.srpSessionColumns,
                [
                    .text(session.id), .text(session.clientID), .text(session.realm), .text(session.identity),
                    .optionalText(session.userID), .blob(session.salt), .blob(session.verifier),
                    .blob(session.clientPublic), .blob(session.serverSecret), .blob(session.serverPublic),
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
                [.integer(checkpoint.treeSize), .text(checkpoint.note), .date(checkpoint.signedAt)])
        case .serverSecret(let name, let value):
            return try insert("server_secrets", "name, value", [.text(name), .blob(value)])
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
        switch key {
        case .credential(let id, let userID):
            try database.execute(
                "DELETE FROM credentials WHERE credential_id = ? AND user_id = ?", [.blob(id), .text(userID)]) == 1
        case .recoveryCode(let userID, let codeHash):
            try database.execute(
                "DELETE FROM recovery_codes WHERE user_id = ? AND code_hash = ?", [.text(userID), .blob(codeHash)])
                == 1
        case .fallbackCounter(let key):
            try database.execute("DELETE FROM fallback_counters WHERE counter_key = ?", [.text(key)]) == 1
        case .organizationMember(let organizationID, let userID):
            try database.execute(
                "DELETE FROM organization_members WHERE organization_id = ? AND user_id = ?",
                [.text(organizationID), .text(userID)]) == 1
        case .organization(let id):
            try deleteOrganization(id)
        }
    }

    /// The organization `id` and its memberships: two statements in the caller's transaction, both or neither.
    private func deleteOrganization(_ id: String) throws(StorageError) -> Bool {
        _ = try database.execute("DELETE FROM organization_members WHERE organization_id = ?", [.text(id)])
        return try database.execute("DELETE FROM organizations WHERE id = ?", [.text(id)]) == 1
    }

    func replace(_ value: SealedValue, expected: [UInt8], replacement: [UInt8]) throws(StorageError) -> Bool {
        let (table, column, keyColumn, key) =
            switch value {
            case .signingKeyPrivateKey(let kid): ("signing_keys", "private_key", "kid", kid)
            case .passwordVerifier(let userID): ("password_verifiers", "verifier", "user_id", userID)
            case .serverSecret(let name): ("server_secrets", "value", "name", name)
            }
        return try database.execute(
            "UPDATE \(table) SET \(column) = ? WHERE \(keyColumn) = ? AND \(column) = ?",
            [.blob(replacement), .text(key), .blob(expected)]) == 1
    }

    func revokeRefreshTokens(_ scope: RefreshTokenRevocation, now: Date) throws(StorageError) -> Int {
        switch scope {
        case .family(let tokenHash):
            guard let token = try refreshToken(hash: tokenHash) else { return 0 }
            try database.execute(
                "UPDATE refresh_tokens SET revoked_at = ? WHERE family_id = ? AND revoked_at IS NULL",
                [.date(now), .text(token.familyID)])
            return 1
        case .user(let userID):
            let families =
                try one(
                    "SELECT count(DISTINCT family_id) FROM refresh_tokens WHERE user_id = ? AND revoked_at IS NULL",
                    [.text(userID)]
                ) { (row) throws(StorageError) in try row.integer(0) } ?? 0
            try database.execute(
                "UPDATE refresh_tokens SET revoked_at = ? WHERE user_id = ? AND revoked_at IS NULL",
                [.date(now), .text(userID)])
            try database.execute("UPDATE users SET sessions_revoked_at = ? WHERE id = ?", [.date(now), .text(userID)])
            return Int(families)
        case .all:
            let families =
                try one("SELECT count(DISTINCT family_id) FROM refresh_tokens WHERE revoked_at IS NULL", []) {
                    (row) throws(StorageError) in try row.integer(0)
                } ?? 0
            try database.execute("UPDATE refresh_tokens SET revoked_at = ? WHERE revoked_at IS NULL", [.date(now)])
            try database.execute("UPDATE users SET sessions_revoked_at = ?", [.date(now)])
            return Int(families)
        case .organizationMember(let organizationID, let userID):
            let families =
                try one(
                    """
                    SELECT count(DISTINCT family_id) FROM refresh_tokens
                    WHERE user_id = ? AND organization_id = ? AND revoked_at IS NULL
                    """,
                    [.text(userID), .text(organizationID)]
                ) { (row) throws(StorageError) in try row.integer(0) } ?? 0
            try database.execute(
                """
                UPDATE refresh_tokens SET revoked_at = ?
                WHERE user_id = ? AND organization_id = ? AND revoked_at IS NULL
                """,
                [.date(now), .text(userID), .text(organizationID)])
            return Int(families)
        }
    }
}
