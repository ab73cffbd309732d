import Foundation
import Storage

/// Password verifiers, SRP sessions, fallback counters and server secrets: each write one statement.
extension PostgresTransaction {
    func passwordVerifier(userID: String) throws(StorageError) -> PasswordVerifier? {
        try one(
            "SELECT \(Self.passwordVerifierColumns) FROM password_verifiers WHERE user_id = $1", [.text(userID)],
            Self.passwordVerifier)
    }

    func passwordVerifier(realm: String, identity: String) throws(StorageError) -> PasswordVerifier? {
        try one(
            "SELECT \(Self.passwordVerifierColumns) FROM password_verifiers WHERE realm = $1 AND identity = $2",
            [.text(realm), .text(identity)], Self.passwordVerifier)
    }

    func passwordVerifiers(afterUserID: String?, excludingPrefix excludedPrefix: [UInt8]?, limit: Int)
        throws(StorageError) -> [PasswordVerifier]
    {
        // Bytewise, as the other stores order it: COLLATE "C". The prefix test runs in the database, so a walk over
        // verifiers already sealed transfers nothing.
        let prefix = excludedPrefix ?? []
        return try connection.query(
            """
            SELECT \(Self.passwordVerifierColumns) FROM password_verifiers
            WHERE user_id > $1 COLLATE "C" AND ($2 = 0 OR substring(verifier FROM 1 FOR $2::integer) <> $3)
            ORDER BY user_id COLLATE "C" LIMIT $4
            """,
            [
                .text(afterUserID ?? ""), .int8(excludedPrefix == nil ? 0 : Int64(prefix.count)), .bytea(prefix),
                .int8(Int64(max(0, limit))),
            ], Self.passwordVerifier)
    }

    func fallbackCounter(key: String) throws(StorageError) -> FallbackCounter? {
        try one(
            "SELECT \(Self.fallbackCounterColumns) FROM fallback_counters WHERE counter_key = $1", [.text(key)],
            Self.fallbackCounter)
    }

    func serverSecret(name: String) throws(StorageError) -> [UInt8]? {
        try one("SELECT value FROM server_secrets WHERE name = $1", [.text(name)]) { (row) throws(StorageError) in
            try row.bytea(0)
        }
    }

    func storePasswordVerifier(_ verifier: PasswordVerifier) throws(StorageError) {
        // The `password_identity` constraint names another user's identity (PostgresFailure maps the name).
        try connection.execute(
            """
            INSERT INTO password_verifiers (\(Self.passwordVerifierColumns)) VALUES ($1, $2, $3, $4, $5, $6)
            ON CONFLICT (user_id) DO UPDATE SET realm = excluded.realm, identity = excluded.identity,
            salt = excluded.salt, verifier = excluded.verifier, updated_at = excluded.updated_at
            """,
            [
                .text(verifier.userID), .text(verifier.realm), .text(verifier.identity), .bytea(verifier.salt),
                .bytea(verifier.verifier), .date(verifier.updatedAt),
            ])
    }

    func consumeSRPSession(id: String, now: Date) throws(StorageError) -> SRPSession? {
        // One statement: exactly one of any number of concurrent callers deletes (and gets) the row.
        let deleted = try one(
            "DELETE FROM srp_sessions WHERE id = $1 RETURNING \(Self.srpSessionColumns)", [.text(id)],
            Self.srpSession)
        guard let deleted, now < deleted.expiresAt else { return nil }
        return deleted
    }

    func incrementFallbackCounter(key: String, now: Date, restartingBefore cutoff: Date?) throws(StorageError)
        -> FallbackCounter
    {
        // One upsert: concurrent increments queue on the row and each adds one. A NULL cutoff never restarts.
        let counter = try one(
            """
            INSERT INTO fallback_counters (counter_key, count, last_at) VALUES ($1, 1, $2)
            ON CONFLICT (counter_key) DO UPDATE SET
            count = CASE WHEN fallback_counters.last_at < $3 THEN 1 ELSE fallback_counters.count + 1 END,
            last_at = excluded.last_at
            RETURNING \(Self.fallbackCounterColumns)
            """,
            [.text(key), .date(now), .optionalDate(cutoff)], Self.fallbackCounter)
        guard let counter else { throw StorageError(.internalFailure, "INSERT … RETURNING returned no counter") }
        return counter
    }

    func lockFallbackCounters(keys: [String]) throws(StorageError) -> [String: FallbackCounter] {
        // A transaction-scoped advisory lock per key (keyed by the schema too, as the node locks), taken in one order
        // so that two writers locking the same keys cannot deadlock; held whether or not the row exists yet, which a
        // row lock could not do for a first attempt. Each read after it is a new READ COMMITTED snapshot: it sees
        // what the previous holder committed.
        var counters: [String: FallbackCounter] = [:]
        for key in Set(keys).sorted() {
            try connection.execute(
                """
                SELECT pg_advisory_xact_lock(
                    hashtext('passkeyd.fallback_counter:' || coalesce(current_schema(), '')), hashtext($1))
                """, [.text(key)])
            if let counter = try fallbackCounter(key: key) { counters[key] = counter }
        }
        return counters
    }

    func decrementFallbackCounter(key: String) throws(StorageError) {
        try connection.execute("DELETE FROM fallback_counters WHERE counter_key = $1 AND count <= 1", [.text(key)])
        try connection.execute(
            "UPDATE fallback_counters SET count = count - 1 WHERE counter_key = $1 AND count > 1", [.text(key)])
    }

    func purgeFallbackCounters(keyPrefix: String, lastBefore cutoff: Date, limit: Int) throws(StorageError) -> Int {
        guard try tryNodeLock(.purge) else { return 0 }
        // Through the last_at index, oldest first; rows another transaction holds are skipped, not waited for.
        return try connection.execute(
            """
            DELETE FROM fallback_counters WHERE counter_key IN (
                SELECT counter_key FROM fallback_counters
                WHERE last_at < $1 AND left(counter_key, char_length($2)) = $2
                ORDER BY last_at LIMIT $3 FOR UPDATE SKIP LOCKED)
            """,
            [.date(cutoff), .text(keyPrefix), .integer(max(0, limit))])
    }

}
