import Foundation

/// The password-fallback operations of the in-memory store (verifiers, SRP sessions, counters, server secrets).
extension MemoryTransaction {
    func passwordVerifier(userID: String) throws(StorageError) -> PasswordVerifier? {
        state.passwordVerifiers[userID]
    }

    func passwordVerifier(realm: String, identity: String) throws(StorageError) -> PasswordVerifier? {
        state.passwordVerifiers.values.first { $0.realm == realm && $0.identity == identity }
    }

    func passwordVerifiers(afterUserID: String?, excludingPrefix excludedPrefix: [UInt8]?, limit: Int)
        throws(StorageError) -> [PasswordVerifier]
    {
        let after = Array((afterUserID ?? "").utf8)
        return Array(
            state.passwordVerifiers.values
                .filter { after.lexicographicallyPrecedes($0.userID.utf8) }
                .filter { record in excludedPrefix.map { !record.verifier.starts(with: $0) } ?? true }
                .sorted { $0.userID.utf8.lexicographicallyPrecedes($1.userID.utf8) }
                .prefix(max(0, limit)))
    }

    func fallbackCounter(key: String) throws(StorageError) -> FallbackCounter? {
        state.fallbackCounters[key]
    }

    func serverSecret(name: String) throws(StorageError) -> [UInt8]? {
        state.serverSecrets[name]
    }

    func storePasswordVerifier(_ verifier: PasswordVerifier) throws(StorageError) {
        if let holder = try passwordVerifier(realm: verifier.realm, identity: verifier.identity),
            holder.userID != verifier.userID
        {
            throw .conflict(.passwordIdentity)
        }
        state.passwordVerifiers[verifier.userID] = verifier
    }

    func consumeSRPSession(id: String, now: Date) throws(StorageError) -> SRPSession? {
        guard let session = state.srpSessions.removeValue(forKey: id), now < session.expiresAt else { return nil }
        return session
    }

    func incrementFallbackCounter(key: String, now: Date, restartingBefore cutoff: Date?) throws(StorageError)
        -> FallbackCounter
    {
        var counter = state.fallbackCounters[key] ?? FallbackCounter(key: key, count: 0, lastAt: now)
        if let cutoff, counter.lastAt < cutoff { counter.count = 0 }
        counter.count += 1
        counter.lastAt = now
        state.fallbackCounters[key] = counter
        return counter
    }

    func lockFallbackCounters(keys: [String]) throws(StorageError) -> [String: FallbackCounter] {
        // Writes hold the store's lock from start to end: nothing else runs in between.
        state.fallbackCounters.filter { keys.contains($0.key) }
    }

    func decrementFallbackCounter(key: String) throws(StorageError) {
        guard let counter = state.fallbackCounters[key] else { return }
        state.fallbackCounters[key] =
            counter.count > 1 ? FallbackCounter(key: key, count: counter.count - 1, lastAt: counter.lastAt) : nil
    }

    func purgeFallbackCounters(keyPrefix: String, lastBefore cutoff: Date, limit: Int) throws(StorageError) -> Int {
        // Oldest first, as the SQL stores delete them.
        let stale = state.fallbackCounters.values.filter { $0.key.hasPrefix(keyPrefix) && $0.lastAt < cutoff }
            .sorted { $0.lastAt < $1.lastAt }.prefix(max(0, limit))
        for counter in stale { state.fallbackCounters[counter.key] = nil }
        return stale.count
    }

}
