import Foundation

/// The in-memory store's rows by key: insert unless present, delete, compare-and-set of sealed bytes, and the
/// refresh-token revocations.
extension MemoryTransaction {
    func insert(_ record: NewRecord) throws(StorageError) -> Bool {
        /// Stores `value` at `key` in `rows` unless present.
        func add<Key: Hashable, Value>(_ rows: inout [Key: Value], _ key: Key, _ value: Value) -> Bool {
            guard rows[key] == nil else { return false }
            rows[key] = value
            return true
        }
        switch record {
        case .credential(let credential): return add(&state.credentials, credential.credentialID, credential)
        case .authSession(let session): return add(&state.authSessions, session.id, session)
        case .refreshToken(let token): return add(&state.refreshTokens, token.tokenHash, token)
        case .signingKey(let key): return add(&state.signingKeys, key.kid, key)
        case .deviceKey(let key): return add(&state.deviceKeys, key.keyID, key)
        case .deviceChallenge(let challenge):
            return add(&state.deviceChallenges, challenge.challengeID, challenge)
        case .srpSession(let session): return add(&state.srpSessions, session.id, session)
        case .deviceEnrolmentNonce(let nonce): return add(&state.deviceEnrolmentNonces, nonce.nonce, nonce)
        case .dpopProof(let use):
            // RFC 9449 §11.1: one (key, jti) once; a remembered one is a replay, however close to its expiry.
            let identity = DPoPProofIdentity(thumbprint: use.thumbprint, jwtID: use.jwtID)
            return add(&state.dpopProofs, identity, use.expiresAt)
        case .spentToken(let jwtID, let expiresAt): return add(&state.spentTokens, jwtID, expiresAt)
        case .spentAuthSession(let id, let expiresAt): return add(&state.spentAuthSessions, id, expiresAt)
        case .auditCheckpoint(let checkpoint):
            return add(&state.auditCheckpoints, checkpoint.treeSize, checkpoint)
        case .serverSecret(let name, let value): return add(&state.serverSecrets, name, value)
        case .organization(let organization):
            // The name is unique too, as the SQL tables' UNIQUE (name) makes it.
            guard !state.organizations.values.contains(where: { $0.name == organization.name }) else { return false }
            return add(&state.organizations, organization.id, organization)
        case .organizationMember(let member):
            return add(&state.organizationMembers[member.organizationID, default: [:]], member.userID, member)
        case .loginSession(let session): return add(&state.loginSessions, session.idHash, session)
        case .authorizationCode(let code): return add(&state.authorizationCodes, code.codeHash, code)
        }
    }

    func delete(_ key: RecordKey) throws(StorageError) -> Bool {
        switch key {
        case .credential(let id, let userID):
            guard state.credentials[id]?.userID == userID else { return false }
            state.credentials[id] = nil
            return true
        case .recoveryCode(let userID, let codeHash):
            guard var codes = state.recoveryCodes[userID],
                let index = codes.firstIndex(where: { $0.codeHash == codeHash })
            else { return false }
            codes.remove(at: index)
            state.recoveryCodes[userID] = codes.isEmpty ? nil : codes
            return true
        case .fallbackCounter(let key):
            return state.fallbackCounters.removeValue(forKey: key) != nil
        case .organizationMember(let organizationID, let userID):
            guard state.organizationMembers[organizationID]?.removeValue(forKey: userID) != nil else { return false }
            if state.organizationMembers[organizationID]?.isEmpty == true {
                state.organizationMembers[organizationID] = nil
            }
            return true
        case .organization(let id):
            guard state.organizations.removeValue(forKey: id) != nil else { return false }
            state.organizationMembers[id] = nil
            return true
        }
    }

    func replace(_ value: SealedValue, expected: [UInt8], replacement: [UInt8]) throws(StorageError) -> Bool {
        switch value {
        case .signingKeyPrivateKey(let kid):
            guard state.signingKeys[kid]?.privateKey == expected else { return false }
            state.signingKeys[kid]?.privateKey = replacement
        case .passwordVerifier(let userID):
            guard state.passwordVerifiers[userID]?.verifier == expected else { return false }
            state.passwordVerifiers[userID]?.verifier = replacement
        case .serverSecret(let name):
            guard state.serverSecrets[name] == expected else { return false }
            state.serverSecrets[name] = replacement
        }
        return true
    }

    func revokeRefreshTokens(_ scope: RefreshTokenRevocation, now: Date) throws(StorageError) -> Int {
        let revoked: (RefreshToken) -> Bool
        switch scope {
        case .family(let tokenHash):
            guard let familyID = state.refreshTokens[tokenHash]?.familyID else { return 0 }
            revoked = { $0.familyID == familyID }
        case .user(let userID):
            revoked = { $0.userID == userID }
            if state.users[userID] != nil { state.sessionsRevokedAt[userID] = now }
        case .all:
            revoked = { _ in true }
            for userID in state.users.keys { state.sessionsRevokedAt[userID] = now }
        case .organizationMember(let organizationID, let userID):
            revoked = { $0.userID == userID && $0.organizationID == organizationID }
        }
        var families = Set<String>()
        for (hash, token) in state.refreshTokens where token.revokedAt == nil && revoked(token) {
            families.insert(token.familyID)
            state.refreshTokens[hash]?.revokedAt = now
        }
        if case .family = scope { return 1 }
        return families.count
    }
}
