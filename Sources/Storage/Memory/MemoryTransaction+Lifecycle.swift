import Foundation

/// The passkey-lifecycle operations of the in-memory store (renames, recovery codes, operators, deletion).
extension MemoryTransaction {
    func users(afterID: String?, limit: Int) throws(StorageError) -> [User] {
        Array(
            state.users.values.filter { afterID == nil || $0.id > afterID ?? "" }.sorted { $0.id < $1.id }.prefix(
                max(0, limit)))
    }

    func recoveryCodes(userID: String) throws(StorageError) -> [RecoveryCode] {
        state.recoveryCodes[userID] ?? []
    }

    func rowsMentioningUser(id userID: String, userHandle: [UInt8]) throws(StorageError) -> [String: Int] {
        // The memory store's "catalogue" is MemoryState's collections, each listed here by its SQL table name.
        let counts: [String: Int] = [
            "users": state.users.values.count { $0.id == userID || $0.userHandle == userHandle },
            "credentials": state.credentials.values.count { $0.userID == userID },
            "auth_sessions": state.authSessions.values.count { $0.userHandle == userHandle },
            "refresh_tokens": state.refreshTokens.values.count { $0.userID == userID },
            "device_keys": state.deviceKeys.values.count { $0.userID == userID },
            "device_challenges": state.deviceChallenges.values.count { $0.userID == userID },
            "device_enrolment_nonces": state.deviceEnrolmentNonces.values.count { $0.userID == userID },
            "password_verifiers": state.passwordVerifiers.values.count { $0.userID == userID },
            "srp_sessions": state.srpSessions.values.count { $0.userID == userID },
            "fallback_counters": state.fallbackCounters.keys.count { $0.contains(userID) },
            "recovery_codes": state.recoveryCodes[userID]?.count ?? 0,
            "organization_members": state.organizationMembers.values.count { $0[userID] != nil },
            "login_sessions": state.loginSessions.values.count { $0.userID == userID },
            "authorization_codes": state.authorizationCodes.values.count { $0.userID == userID },
        ]
        return counts.filter { $0.value > 0 }
    }

    func renameCredential(id credentialID: [UInt8], userID: String, name: String?) throws(StorageError) -> Bool {
        guard var credential = state.credentials[credentialID], credential.userID == userID else { return false }
        credential.name = name
        state.credentials[credentialID] = credential
        return true
    }

    func replaceRecoveryCodes(userID: String, with codes: [RecoveryCode]) throws(StorageError) -> Int {
        guard state.users[userID] != nil else { throw StorageError(.notFound, "no user \(userID)") }
        guard codes.allSatisfy({ $0.userID == userID }) else {
            throw StorageError(.conflict, "recovery code of another user", constraint: .foreignKey)
        }
        let revoked = state.recoveryCodes[userID]?.count ?? 0
        state.recoveryCodes[userID] = codes.isEmpty ? nil : codes
        return revoked
    }

    func isTokenSpent(jwtID: String) throws(StorageError) -> Bool {
        state.spentTokens[jwtID] != nil
    }

    func isAuthSessionSpent(id: String) throws(StorageError) -> Bool {
        state.spentAuthSessions[id] != nil
    }

    func deleteUser(id: String) throws(StorageError) -> Bool {
        guard let user = state.users.removeValue(forKey: id) else { return false }
        state.credentials = state.credentials.filter { $0.value.userID != id }
        state.authSessions = state.authSessions.filter { $0.value.userHandle != user.userHandle }
        state.refreshTokens = state.refreshTokens.filter { $0.value.userID != id }
        state.deviceKeys = state.deviceKeys.filter { $0.value.userID != id }
        state.deviceChallenges = state.deviceChallenges.filter { $0.value.userID != id }
        state.deviceEnrolmentNonces = state.deviceEnrolmentNonces.filter { $0.value.userID != id }
        state.passwordVerifiers[id] = nil
        state.srpSessions = state.srpSessions.filter { $0.value.userID != id }
        state.recoveryCodes[id] = nil
        state.sessionsRevokedAt[id] = nil
        state.loginSessions = state.loginSessions.filter { $0.value.userID != id }
        state.authorizationCodes = state.authorizationCodes.filter { $0.value.userID != id }
        for organizationID in state.organizationMembers.keys {
            state.organizationMembers[organizationID]?[id] = nil
            if state.organizationMembers[organizationID]?.isEmpty == true {
                state.organizationMembers[organizationID] = nil
            }
        }
        return true
    }
}
