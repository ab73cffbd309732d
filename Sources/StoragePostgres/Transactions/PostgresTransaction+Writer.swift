import Foundation
import Storage

/// The write operations. Each is atomic on its own and never leaves the transaction aborted for an expected
/// outcome: inserts use `ON CONFLICT DO NOTHING RETURNING` and name the clashing constraint themselves, so a body
/// may catch an operation's `.conflict` and go on, as with the other stores. The consuming operations are single
/// statements (`DELETE … RETURNING`, `UPDATE … WHERE <unused> RETURNING`): at READ COMMITTED a concurrent
/// transaction touching the same row waits for the first to commit, then re-checks the WHERE clause on the new
/// row version and finds nothing, so of any number of concurrent callers on any number of nodes exactly one wins.
extension PostgresTransaction {
    func insertUser(_ user: User, credential: Credential) throws(StorageError) {
        // The insert's ON CONFLICT still catches a concurrent transaction that got there first.
        try checkNewUser(user, credential: credential)
        let inserted = try connection.execute(
            """
            INSERT INTO users (\(Self.userColumns))
            VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13) ON CONFLICT DO NOTHING
            """,
            [
                .text(user.id), .bytea(user.userHandle), .text(user.realm), .optionalText(user.email),
                .optionalText(user.phoneNumber), .optionalText(user.username), .optionalText(user.name),
                .date(user.createdAt), .optionalText(user.profile.givenName), .optionalText(user.profile.familyName),
                .optionalText(user.profile.nickname), .optionalText(user.profile.picture),
                .optionalText(user.profile.userMetadata),
            ])
        guard inserted == 1 else {
            // A concurrent transaction committed a clashing row after the checks: name it.
            try checkNewUser(user, credential: credential)
            throw .conflict(.userID)
        }
        do {
            try insertCredentialRow(credential)
        } catch {
            // Keep the operation atomic for a caller that catches: take the user row back out.
            try connection.execute("DELETE FROM users WHERE id = $1", [.text(user.id)])
            throw error
        }
    }

    func insertCredential(_ credential: Credential) throws(StorageError) {
        guard try user(id: credential.userID) != nil else {
            throw StorageError(.notFound, "no user \(credential.userID) for the credential")
        }
        try insertCredentialRow(credential)
    }

    private func insertCredentialRow(_ credential: Credential) throws(StorageError) {
        let inserted = try connection.execute(
            """
            INSERT INTO credentials (\(Self.credentialColumns))
            VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14) ON CONFLICT DO NOTHING
            """,
            [
                .bytea(credential.credentialID), .text(credential.userID), .bytea(credential.publicKey),
                .integer(credential.algorithm), .int8(Int64(credential.signCount)),
                .bool(credential.uvInitialized), .bool(credential.backupEligible), .bool(credential.backedUp),
                .text(TransportsColumn.encode(credential.transports)), .bytea(credential.aaguid),
                .text(credential.attestationFormat), .date(credential.createdAt), .optionalDate(credential.lastUsedAt),
                .optionalText(credential.name),
            ])
        guard inserted == 1 else { throw .conflict(.credentialID) }
    }

    func recordCredentialUse(_ use: CredentialUse) throws(StorageError) -> Bool {
        // Compare-and-set on the counter the verifier checked (WebAuthn L3 §7.2 step 22).
        try connection.execute(
            """
            UPDATE credentials SET sign_count = $1, backed_up = $2, last_used_at = $3
            WHERE credential_id = $4 AND sign_count = $5
            """,
            [
                .int8(Int64(use.newSignCount)), .bool(use.backedUp), .date(use.usedAt), .bytea(use.credentialID),
                .int8(Int64(use.expectedSignCount)),
            ]) == 1
    }

    func insertAuthSession(_ session: AuthSession) throws(StorageError) {
        let inserted = try connection.execute(
            """
            INSERT INTO auth_sessions (\(Self.authSessionColumns))
            VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17) ON CONFLICT DO NOTHING
            """,
            [
                .text(session.id), .text(session.clientID), .text(session.realm), .text(session.kind.rawValue),
                .bytea(session.challenge), .optionalText(session.email), .optionalText(session.phoneNumber),
                .optionalText(session.username), .optionalText(session.name), .optionalBytea(session.userHandle),
                .date(session.createdAt), .date(session.expiresAt), .optionalText(session.profile.givenName),
                .optionalText(session.profile.familyName),
                .optionalText(session.profile.nickname), .optionalText(session.profile.picture),
                .optionalText(session.profile.userMetadata),
            ])
        guard inserted == 1 else { throw .conflict(.authSessionID) }
    }

    func consumeAuthSession(id: String, now: Date) throws(StorageError) -> AuthSession? {
        // One statement: exactly one of any number of concurrent callers deletes (and gets) the row.
        let deleted = try one(
            "DELETE FROM auth_sessions WHERE id = $1 RETURNING \(Self.authSessionColumns)", [.text(id)],
            Self.authSession)
        guard let deleted, now < deleted.expiresAt else { return nil }
        return deleted
    }

    func insertRefreshToken(_ token: RefreshToken) throws(StorageError) {
        let inserted = try connection.execute(
            """
            INSERT INTO refresh_tokens (\(Self.refreshTokenColumns))
            VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14) ON CONFLICT DO NOTHING
            """,
            [
                .bytea(token.tokenHash), .text(token.familyID), .text(token.clientID), .text(token.userID),
                .text(token.scope), .date(token.authTime), .date(token.createdAt), .date(token.absoluteExpiresAt),
                .date(token.idleExpiresAt), .optionalDate(token.rotatedAt), .optionalDate(token.revokedAt),
                .optionalText(token.dpopThumbprint), .optionalText(token.audience),
                .optionalText(AuthenticationMethodsColumn.encode(token.authenticationMethods)),
            ])
        guard inserted == 1 else { throw .conflict(.refreshTokenHash) }
    }

    func markRefreshTokenRotated(presentedHash: [UInt8], now: Date, replacement: RefreshToken)
        throws(StorageError) -> Bool
    {
        // Compare-and-set in one statement: only a token neither rotated nor revoked is marked (RFC 9700 §4.14.2
        // single use); a concurrent presentation waits for this row and then finds rotated_at set.
        let marked = try connection.execute(
            """
            UPDATE refresh_tokens SET rotated_at = $1
            WHERE token_hash = $2 AND rotated_at IS NULL AND revoked_at IS NULL
            """,
            [.date(now), .bytea(presentedHash)])
        guard marked == 1 else { return false }
        do {
            try insertRefreshToken(replacement)
        } catch {
            // Keep the operation atomic for a caller that catches: take the mark back.
            try connection.execute(
                "UPDATE refresh_tokens SET rotated_at = NULL WHERE token_hash = $1", [.bytea(presentedHash)])
            throw error
        }
        return true
    }

    func revokeRefreshTokenFamily(tokenHash: [UInt8], now: Date) throws(StorageError) -> Bool {
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
        return (found ?? 0) > 0
    }

    func insertSigningKey(_ key: SigningKey) throws(StorageError) {
        let inserted = try connection.execute(
            "INSERT INTO signing_keys (\(Self.signingKeyColumns)) VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT DO NOTHING",
            [
                .text(key.kid), .text(key.algorithm), .bytea(key.privateKey), .bytea(key.publicKey),
                .date(key.createdAt), .optionalDate(key.retiredAt),
            ])
        guard inserted == 1 else { throw .conflict(.signingKeyID) }
    }

    func retireSigningKey(kid: String, at: Date) throws(StorageError) -> Bool {
        try connection.execute(
            "UPDATE signing_keys SET retired_at = $1 WHERE kid = $2 AND retired_at IS NULL", [.date(at), .text(kid)])
            == 1
    }

    func replaceSigningKeyPrivateKey(kid: String, expected: [UInt8], replacement: [UInt8]) throws(StorageError) -> Bool
    {
        try connection.execute(
            "UPDATE signing_keys SET private_key = $1 WHERE kid = $2 AND private_key = $3",
            [.bytea(replacement), .text(kid), .bytea(expected)]) == 1
    }
}
