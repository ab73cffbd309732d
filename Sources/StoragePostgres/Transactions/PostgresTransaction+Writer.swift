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
        do throws(StorageError) {
            guard try insert(.credential(credential)) else { throw .conflict(.credentialID) }
        } catch {
            // Keep the operation atomic for a caller that catches: take the user row back out.
            try connection.execute("DELETE FROM users WHERE id = $1", [.text(user.id)])
            throw error
        }
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

    func consumeAuthSession(id: String, now: Date) throws(StorageError) -> AuthSession? {
        // One statement: exactly one of any number of concurrent callers deletes (and gets) the row.
        let deleted = try one(
            "DELETE FROM auth_sessions WHERE id = $1 RETURNING \(Self.authSessionColumns)", [.text(id)],
            Self.authSession)
        guard let deleted, now < deleted.expiresAt else { return nil }
        return deleted
    }

    func markRefreshTokenRotated(presentedHash: [UInt8], now: Date, replacement: RefreshToken)
        throws(StorageError) -> Bool
    {
        // Compare-and-set in one statement: only a token neither rotated nor revoked is marked (RFC 9700 §4.14.2
        // single use); a concurrent presentation waits for this row and then finds rotated_at set.
        let marked = try connection.execute(
            """
            UPDATE refresh_tokens SET rotated_at = $1, successor_hash = $2
            WHERE token_hash = $3 AND rotated_at IS NULL AND revoked_at IS NULL
            """,
            [.date(now), .bytea(replacement.tokenHash), .bytea(presentedHash)])
        guard marked == 1 else { return false }
        do {
            try insertRefreshToken(replacement)
        } catch {
            // Keep the operation atomic for a caller that catches: take the mark back.
            try connection.execute(
                "UPDATE refresh_tokens SET rotated_at = NULL, successor_hash = NULL WHERE token_hash = $1",
                [.bytea(presentedHash)])
            throw error
        }
        return true
    }

    func reissueRefreshToken(presentedHash: [UInt8], supersededHash: [UInt8], now: Date, replacement: RefreshToken)
        throws(StorageError) -> Bool
    {
        // Compare-and-set on the superseded successor, the row a rotation of that successor marks too: a concurrent
        // retry (or rotation of the successor) waits for this row and then finds rotated_at set.
        let marked = try connection.execute(
            """
            UPDATE refresh_tokens SET rotated_at = $1
            WHERE token_hash = $2 AND rotated_at IS NULL AND revoked_at IS NULL AND EXISTS (
                SELECT 1 FROM refresh_tokens
                WHERE token_hash = $3 AND successor_hash = $2 AND revoked_at IS NULL)
            """,
            [.date(now), .bytea(supersededHash), .bytea(presentedHash)])
        guard marked == 1 else { return false }
        do {
            try insertRefreshToken(replacement)
        } catch {
            // Keep the operation atomic for a caller that catches: take the mark back.
            try connection.execute(
                "UPDATE refresh_tokens SET rotated_at = NULL WHERE token_hash = $1", [.bytea(supersededHash)])
            throw error
        }
        try connection.execute(
            "UPDATE refresh_tokens SET successor_hash = $1 WHERE token_hash = $2",
            [.bytea(replacement.tokenHash), .bytea(presentedHash)])
        return true
    }

    func retireSigningKey(kid: String, at: Date) throws(StorageError) -> Bool {
        try connection.execute(
            "UPDATE signing_keys SET retired_at = $1 WHERE kid = $2 AND retired_at IS NULL", [.date(at), .text(kid)])
            == 1
    }

}
