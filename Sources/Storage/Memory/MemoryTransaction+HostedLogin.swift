import Foundation

/// The hosted login's sessions and authorization codes in the in-memory store.
extension MemoryTransaction {
    func loginSession(idHash: [UInt8]) throws(StorageError) -> LoginSession? {
        state.loginSessions[idHash]
    }

    func authorizationCode(hash codeHash: [UInt8]) throws(StorageError) -> AuthorizationCode? {
        state.authorizationCodes[codeHash]
    }

    func endLoginSession(idHash: [UInt8], at: Date) throws(StorageError) -> Bool {
        guard var session = state.loginSessions[idHash], session.endedAt == nil else { return false }
        session.endedAt = at
        state.loginSessions[idHash] = session
        return true
    }

    func endLoginSessions(userID: String?, at: Date) throws(StorageError) -> Int {
        let live = state.loginSessions.values.filter { (userID == nil || $0.userID == userID) && $0.endedAt == nil }
        for var session in live {
            session.endedAt = at
            state.loginSessions[session.idHash] = session
        }
        return live.count
    }

    func redeemAuthorizationCode(hash codeHash: [UInt8], at: Date, refreshFamily: String) throws(StorageError)
        -> Bool
    {
        guard var code = state.authorizationCodes[codeHash], code.redeemedAt == nil else { return false }
        code.redeemedAt = at
        code.refreshFamily = refreshFamily
        state.authorizationCodes[codeHash] = code
        return true
    }

    /// Deletes at most `limit` login sessions and at most `limit` codes past their expiry, the first to expire first.
    func purgeExpiredHostedLogin(now: Date, limit: Int) -> (sessions: Int, codes: Int) {
        let sessions = state.loginSessions.values.filter { $0.expiresAt <= now }
            .sorted { $0.expiresAt < $1.expiresAt }.prefix(max(0, limit))
        for session in sessions { state.loginSessions[session.idHash] = nil }
        let codes = state.authorizationCodes.values.filter { $0.expiresAt <= now }
            .sorted { $0.expiresAt < $1.expiresAt }.prefix(max(0, limit))
        for code in codes { state.authorizationCodes[code.codeHash] = nil }
        return (sessions.count, codes.count)
    }
}
