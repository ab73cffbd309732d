import Foundation
import Storage

/// Password verifiers, SRP sessions, fallback counters and server secrets.
extension SQLiteTransaction {
    func passwordVerifier(userID: String) throws(StorageError) -> PasswordVerifier? {
        try one(
            "SELECT \(Self.passwordVerifierColumns) FROM password_verifiers WHERE user_id = ?", [.text(userID)],
            Self.passwordVerifier)
    }

    func passwordVerifier(realm: String, identity: String) throws(StorageError) -> PasswordVerifier? {
        try one(
            "SELECT \(Self.passwordVerifierColumns) FROM password_verifiers WHERE realm = ? AND identity = ?",
            [.text(realm), .text(identity)], Self.passwordVerifier)
    }

    func passwordVerifiers(afterUserID: String?, excludingPrefix excludedPrefix: [UInt8]?, limit: Int)
        throws(StorageError) -> [PasswordVerifier]
    {
        // TEXT compares bytewise (BINARY collation), through the primary key; substr of a BLOB counts bytes, and
        // BLOBs compare with memcmp.
        let prefix = excludedPrefix ?? []
        return try database.query(
            """
            SELECT \(Self.passwordVerifierColumns) FROM password_verifiers
            WHERE user_id > ? AND (? = 0 OR substr(verifier, 1, ?) != ?) ORDER BY user_id LIMIT ?
            """,
            [
                .text(afterUserID ?? ""), .integer(excludedPrefix == nil ? 0 : 1), .integer(Int64(prefix.count)),
                .blob(prefix), .integer(Int64(max(0, limit))),
            ], Self.passwordVerifier)
    }

    func fallbackCounter(key: String) throws(StorageError) -> FallbackCounter? {
        try one(
            "SELECT \(Self.fallbackCounterColumns) FROM fallback_counters WHERE counter_key = ?", [.text(key)],
            Self.fallbackCounter)
    }

    func serverSecret(name: String) throws(StorageError) -> [UInt8]? {
        try one("SELECT value FROM server_secrets WHERE name = ?", [.text(name)]) { (row) throws(StorageError) in
            try row.blob(0)
        }
    }

    func storePasswordVerifier(_ verifier: PasswordVerifier) throws(StorageError) {
        // The UNIQUE (realm, identity) constraint names another user's identity as `.passwordIdentity`.
        try database.execute(
            """
            INSERT INTO password_verifiers (\(Self.passwordVerifierColumns)) VALUES (?, ?, ?, ?, ?, ?)
            ON CONFLICT (user_id) DO UPDATE SET realm = excluded.realm, identity = excluded.identity,
            salt = excluded.salt, verifier = excluded.verifier, updated_at = excluded.updated_at
            """,
            [
                .text(verifier.userID), .text(verifier.realm), .text(verifier.identity), .blob(verifier.salt),
                .blob(verifier.verifier), .date(verifier.updatedAt),
            ])
    }

    func consumeSRPSession(id: String, now: Date) throws(StorageError) -> SRPSession? {
        // One statement: the row is gone for every later caller, expired or not.
        let session = try one(
            "DELETE FROM srp_sessions WHERE id = ? RETURNING \(Self.srpSessionColumns)", [.text(id)], Self.srpSession)
        guard let session, now < session.expiresAt else { return nil }
        return session
    }

    func incrementFallbackCounter(key: String, now: Date, restartingBefore cutoff: Date?) throws(StorageError)
        -> FallbackCounter
    {
        // A NULL cutoff compares as unknown, so the counter never restarts. Read back with a SELECT, not RETURNING:
        // RETURNING hands out a whole-second REAL as SQLite stores it on disk, an INTEGER. The writer's
        // transaction is the only one, so nothing runs in between.
        try database.execute(
            """
            INSERT INTO fallback_counters (counter_key, count, last_at) VALUES (?, 1, ?)
            ON CONFLICT (counter_key) DO UPDATE SET
            count = CASE WHEN fallback_counters.last_at < ? THEN 1 ELSE fallback_counters.count + 1 END,
            last_at = excluded.last_at
            """,
            [.text(key), .date(now), .optionalDate(cutoff)])
        guard let counter = try fallbackCounter(key: key) else {
            throw StorageError(.internalFailure, "fallback counter \(key) missing after its upsert")
        }
        return counter
    }

    func lockFallbackCounters(keys: [String]) throws(StorageError) -> [String: FallbackCounter] {
        // The writer's transaction is the only one (BEGIN IMMEDIATE): nothing changes them until it ends.
        var counters: [String: FallbackCounter] = [:]
        for key in Set(keys) {
            if let counter = try fallbackCounter(key: key) { counters[key] = counter }
        }
        return counters
    }

    func decrementFallbackCounter(key: String) throws(StorageError) {
        try database.execute("DELETE FROM fallback_counters WHERE counter_key = ? AND count <= 1", [.text(key)])
        try database.execute(
            "UPDATE fallback_counters SET count = count - 1 WHERE counter_key = ? AND count > 1", [.text(key)])
    }

    func purgeFallbackCounters(keyPrefix: String, lastBefore cutoff: Date, limit: Int) throws(StorageError) -> Int {
        // Through the last_at index, oldest first; `substr` and `length` count characters alike.
        try database.execute(
            """
            DELETE FROM fallback_counters WHERE rowid IN (
                SELECT rowid FROM fallback_counters
                WHERE last_at < ? AND substr(counter_key, 1, length(?)) = ? ORDER BY last_at LIMIT ?)
            """,
            [.date(cutoff), .text(keyPrefix), .text(keyPrefix), .integer(Int64(max(0, limit)))])
    }

}
