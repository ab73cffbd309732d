import Foundation
import Storage

/// The write operations. Each is atomic on its own: checks come before changes, and a failing statement changes
/// nothing, so a body may catch an operation's error and go on.
extension SQLiteTransaction {
    func insertUser(_ user: User, credential: Credential) throws(StorageError) {
        try checkNewUser(user, credential: credential)
        try database.execute(
            "INSERT INTO users (\(Self.userColumns)) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            [
                .text(user.id), .blob(user.userHandle), .text(user.realm), .optionalText(user.email),
                .optionalText(user.phoneNumber), .optionalText(user.username), .optionalText(user.name),
                .date(user.createdAt), .optionalText(user.profile.givenName), .optionalText(user.profile.familyName),
                .optionalText(user.profile.nickname), .optionalText(user.profile.picture),
                .optionalText(user.profile.userMetadata),
            ])
        do {
            try insertCredentialRow(credential)
        } catch {
            // Keep the operation atomic for a caller that catches: take the user row back out.
            try database.execute("DELETE FROM users WHERE id = ?", [.text(user.id)])
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
        try database.execute(
            "INSERT INTO credentials (\(Self.credentialColumns)) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            [
                .blob(credential.credentialID), .text(credential.userID), .blob(credential.publicKey),
                .integer(Int64(credential.algorithm)), .integer(Int64(credential.signCount)),
                .bool(credential.uvInitialized), .bool(credential.backupEligible), .bool(credential.backedUp),
                .text(TransportsColumn.encode(credential.transports)), .blob(credential.aaguid),
                .text(credential.attestationFormat), .date(credential.createdAt), .optionalDate(credential.lastUsedAt),
                .optionalText(credential.name),
            ])
    }

    func recordCredentialUse(_ use: CredentialUse) throws(StorageError) -> Bool {
        // Compare-and-set on the counter the verifier checked (WebAuthn L3 §7.2 step 22).
        try database.execute(
            """
            UPDATE credentials SET sign_count = ?, backed_up = ?, last_used_at = ?
            WHERE credential_id = ? AND sign_count = ?
            """,
            [
                .integer(Int64(use.newSignCount)), .bool(use.backedUp), .date(use.usedAt), .blob(use.credentialID),
                .integer(Int64(use.expectedSignCount)),
            ]) == 1
    }

    func insertAuthSession(_ session: AuthSession) throws(StorageError) {
        try database.execute(
            """
            INSERT INTO auth_sessions (\(Self.authSessionColumns))
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """,
            [
                .text(session.id), .text(session.clientID), .text(session.realm), .text(session.kind.rawValue),
                .blob(session.challenge), .optionalText(session.email), .optionalText(session.phoneNumber),
                .optionalText(session.username), .optionalText(session.name), .optionalBlob(session.userHandle),
                .date(session.createdAt), .date(session.expiresAt), .optionalText(session.profile.givenName),
                .optionalText(session.profile.familyName),
                .optionalText(session.profile.nickname), .optionalText(session.profile.picture),
                .optionalText(session.profile.userMetadata),
            ])
    }

    func consumeAuthSession(id: String, now: Date) throws(StorageError) -> AuthSession? {
        // Delete-returning inside the writer's transaction: exactly one caller gets the row.
        let deleted = try one(
            "DELETE FROM auth_sessions WHERE id = ? RETURNING \(Self.authSessionColumns)", [.text(id)],
            Self.authSession)
        guard let deleted, now < deleted.expiresAt else { return nil }
        return deleted
    }

    func insertRefreshToken(_ token: RefreshToken) throws(StorageError) {
        try database.execute(
            "INSERT INTO refresh_tokens (\(Self.refreshTokenColumns)) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            [
                .blob(token.tokenHash), .text(token.familyID), .text(token.clientID), .text(token.userID),
                .text(token.scope), .date(token.authTime), .date(token.createdAt), .date(token.absoluteExpiresAt),
                .date(token.idleExpiresAt), .optionalDate(token.rotatedAt), .optionalDate(token.revokedAt),
                .optionalText(token.dpopThumbprint), .optionalText(token.audience),
                .optionalText(AuthenticationMethodsColumn.encode(token.authenticationMethods)),
            ])
    }

    func markRefreshTokenRotated(presentedHash: [UInt8], now: Date, replacement: RefreshToken)
        throws(StorageError) -> Bool
    {
        // Compare-and-set: only a token neither rotated nor revoked is marked (single use).
        let marked = try database.execute(
            """
            UPDATE refresh_tokens SET rotated_at = ?
            WHERE token_hash = ? AND rotated_at IS NULL AND revoked_at IS NULL
            """,
            [.date(now), .blob(presentedHash)])
        guard marked == 1 else { return false }
        do {
            try insertRefreshToken(replacement)
        } catch {
            // Keep the operation atomic for a caller that catches: take the mark back.
            try database.execute(
                "UPDATE refresh_tokens SET rotated_at = NULL WHERE token_hash = ?", [.blob(presentedHash)])
            throw error
        }
        return true
    }

    func revokeRefreshTokenFamily(tokenHash: [UInt8], now: Date) throws(StorageError) -> Bool {
        guard let token = try refreshToken(hash: tokenHash) else { return false }
        try revokeFamily(token.familyID, now: now)
        return true
    }

    private func revokeFamily(_ familyID: String, now: Date) throws(StorageError) {
        try database.execute(
            "UPDATE refresh_tokens SET revoked_at = ? WHERE family_id = ? AND revoked_at IS NULL",
            [.date(now), .text(familyID)])
    }

    func insertSigningKey(_ key: SigningKey) throws(StorageError) {
        try database.execute(
            "INSERT INTO signing_keys (\(Self.signingKeyColumns)) VALUES (?, ?, ?, ?, ?, ?)",
            [
                .text(key.kid), .text(key.algorithm), .blob(key.privateKey), .blob(key.publicKey), .date(key.createdAt),
                .optionalDate(key.retiredAt),
            ])
    }

    func retireSigningKey(kid: String, at: Date) throws(StorageError) -> Bool {
        try database.execute(
            "UPDATE signing_keys SET retired_at = ? WHERE kid = ? AND retired_at IS NULL", [.date(at), .text(kid)])
            == 1
    }

    func replaceSigningKeyPrivateKey(kid: String, expected: [UInt8], replacement: [UInt8]) throws(StorageError) -> Bool
    {
        try database.execute(
            "UPDATE signing_keys SET private_key = ? WHERE kid = ? AND private_key = ?",
            [.blob(replacement), .text(kid), .blob(expected)]) == 1
    }
}
