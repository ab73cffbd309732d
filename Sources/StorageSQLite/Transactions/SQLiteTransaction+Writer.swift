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
        do throws(StorageError) {
            guard try insert(.credential(credential)) else { throw .conflict(.credentialID) }
        } catch {
            // Keep the operation atomic for a caller that catches: take the user row back out.
            try database.execute("DELETE FROM users WHERE id = ?", [.text(user.id)])
            throw error
        }
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

    func consumeAuthSession(id: String, now: Date) throws(StorageError) -> AuthSession? {
        // Delete-returning inside the writer's transaction: exactly one caller gets the row.
        let deleted = try one(
            "DELETE FROM auth_sessions WHERE id = ? RETURNING \(Self.authSessionColumns)", [.text(id)],
            Self.authSession)
        guard let deleted, now < deleted.expiresAt else { return nil }
        return deleted
    }

    func markRefreshTokenRotated(presentedHash: [UInt8], now: Date, replacement: RefreshToken)
        throws(StorageError) -> Bool
    {
        // Compare-and-set: only a token neither rotated nor revoked is marked (single use).
        let marked = try database.execute(
            """
            UPDATE refresh_tokens SET rotated_at = ?, successor_hash = ?
            WHERE token_hash = ? AND rotated_at IS NULL AND revoked_at IS NULL
            """,
            [.date(now), .blob(replacement.tokenHash), .blob(presentedHash)])
        guard marked == 1 else { return false }
        do {
            try insertRefreshToken(replacement)
        } catch {
            // Keep the operation atomic for a caller that catches: take the mark back.
            try database.execute(
                "UPDATE refresh_tokens SET rotated_at = NULL, successor_hash = NULL WHERE token_hash = ?",
                [.blob(presentedHash)])
            throw error
        }
        return true
    }

    func reissueRefreshToken(presentedHash: [UInt8], supersededHash: [UInt8], now: Date, replacement: RefreshToken)
        throws(StorageError) -> Bool
    {
        // Compare-and-set on the superseded successor, the row a rotation of that successor marks too.
        let marked = try database.execute(
            """
            UPDATE refresh_tokens SET rotated_at = ?
            WHERE token_hash = ? AND rotated_at IS NULL AND revoked_at IS NULL AND EXISTS (
                SELECT 1 FROM refresh_tokens
                WHERE token_hash = ? AND successor_hash = ? AND revoked_at IS NULL)
            """,
            [.date(now), .blob(supersededHash), .blob(presentedHash), .blob(supersededHash)])
        guard marked == 1 else { return false }
        do {
            try insertRefreshToken(replacement)
        } catch {
            // Keep the operation atomic for a caller that catches: take the mark back.
            try database.execute(
                "UPDATE refresh_tokens SET rotated_at = NULL WHERE token_hash = ?", [.blob(supersededHash)])
            throw error
        }
        try database.execute(
            "UPDATE refresh_tokens SET successor_hash = ? WHERE token_hash = ?",
            [.blob(replacement.tokenHash), .blob(presentedHash)])
        return true
    }

    func retireSigningKey(kid: String, at: Date) throws(StorageError) -> Bool {
        try database.execute(
            "UPDATE signing_keys SET retired_at = ? WHERE kid = ? AND retired_at IS NULL", [.date(at), .text(kid)])
            == 1
    }

}
