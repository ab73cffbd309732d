import Foundation

/// The write operations of the in-memory store. Each checks everything before changing anything, so an
/// operation that throws leaves the transaction's state as it was (a caller may catch and go on).
extension MemoryTransaction {
    func insertUser(_ user: User, credential: Credential) throws(StorageError) {
        try checkNewUser(user, credential: credential)
        state.users[user.id] = user
        state.credentials[credential.credentialID] = credential
    }

    func recordCredentialUse(_ use: CredentialUse) throws(StorageError) -> Bool {
        // Compare-and-set on the counter the verifier checked (WebAuthn L3 §7.2 step 22).
        guard var credential = state.credentials[use.credentialID], credential.signCount == use.expectedSignCount
        else { return false }
        credential.signCount = use.newSignCount
        credential.backedUp = use.backedUp
        credential.lastUsedAt = use.usedAt
        state.credentials[use.credentialID] = credential
        return true
    }

    func consumeAuthSession(id: String, now: Date) throws(StorageError) -> AuthSession? {
        guard let session = state.authSessions.removeValue(forKey: id), now < session.expiresAt else { return nil }
        return session
    }

    func markRefreshTokenRotated(presentedHash: [UInt8], now: Date, replacement: RefreshToken)
        throws(StorageError) -> Bool
    {
        // Compare-and-set: only a token neither rotated nor revoked is marked (single use).
        guard let presented = state.refreshTokens[presentedHash], presented.rotatedAt == nil,
            presented.revokedAt == nil
        else { return false }
        guard state.refreshTokens[replacement.tokenHash] == nil else { throw .conflict(.refreshTokenHash) }
        state.refreshTokens[presentedHash]?.rotatedAt = now
        state.refreshTokens[presentedHash]?.successorHash = replacement.tokenHash
        state.refreshTokens[replacement.tokenHash] = replacement
        return true
    }

    func reissueRefreshToken(presentedHash: [UInt8], supersededHash: [UInt8], now: Date, replacement: RefreshToken)
        throws(StorageError) -> Bool
    {
        // Compare-and-set on the superseded successor, the row a rotation of that successor marks too.
        guard let presented = state.refreshTokens[presentedHash], presented.revokedAt == nil,
            presented.successorHash == supersededHash, let superseded = state.refreshTokens[supersededHash],
            superseded.rotatedAt == nil, superseded.revokedAt == nil
        else { return false }
        guard state.refreshTokens[replacement.tokenHash] == nil else { throw .conflict(.refreshTokenHash) }
        state.refreshTokens[supersededHash]?.rotatedAt = now
        state.refreshTokens[presentedHash]?.successorHash = replacement.tokenHash
        state.refreshTokens[replacement.tokenHash] = replacement
        return true
    }

    func retireSigningKey(kid: String, at: Date) throws(StorageError) -> Bool {
        guard let key = state.signingKeys[kid], key.retiredAt == nil else { return false }
        state.signingKeys[kid]?.retiredAt = at
        return true
    }

    func updateDeviceKeyState(keyID: String, userID: String, state newState: DeviceKeyState) throws(StorageError)
        -> Bool
    {
        guard state.deviceKeys[keyID]?.userID == userID else { return false }
        state.deviceKeys[keyID]?.state = newState
        return true
    }

    func touchDeviceKey(keyID: String, userID: String, at: Date) throws(StorageError) -> Bool {
        guard state.deviceKeys[keyID]?.userID == userID else { return false }
        state.deviceKeys[keyID]?.lastUsedAt = at
        return true
    }

    func consumeDeviceChallenge(id challengeID: String, keyID: String, userID: String, now: Date)
        throws(StorageError) -> DeviceChallengeConsumption
    {
        let verdict = DeviceChallengeConsumption.judge(
            state.deviceChallenges[challengeID], keyID: keyID, userID: userID, now: now)
        if case .consumed(let challenge) = verdict { state.deviceChallenges[challengeID] = challenge }
        return verdict
    }

    func appendSecurityEvent(_ event: SecurityEvent) throws(StorageError) -> SecurityEvent {
        var stored = event.filledFromOrigin()
        state.lastSecurityEventSeq += 1
        stored.seq = state.lastSecurityEventSeq
        state.securityEvents.append(stored)
        state.auditPending.append(stored.seq)
        return stored
    }

    func lockAuditTree() throws(StorageError) -> AuditTreeState? {
        // Writes are serialized by the store's lock: this transaction holds the tree.
        state.auditTree
    }

    func purgeSecurityEvents(before cutoff: Date, limit: Int) throws(StorageError) -> Int {
        let pending = Set(state.auditPending)
        let purged = Set(
            state.securityEvents.prefix(max(0, limit)).filter { $0.occurredAt < cutoff && !pending.contains($0.seq) }
                .map(\.seq))
        state.securityEvents.removeAll { purged.contains($0.seq) }
        return purged.count
    }

    func takePendingSecurityEvents(limit: Int) throws(StorageError) -> [SecurityEvent] {
        let taken = Set(state.auditPending.sorted().prefix(max(0, limit)))
        state.auditPending.removeAll { taken.contains($0) }
        return state.securityEvents.filter { taken.contains($0.seq) }
    }

    func appendAuditLeaves(_ leaves: [AuditLeaf], from: AuditTreeState, tree: AuditTreeState) throws(StorageError) {
        try AuditTreeState.checkAppend(leaves, from: from, to: tree)
        guard state.auditTree.size == from.size else {
            throw StorageError(.internalFailure, "the audit tree moved from \(from.size) to \(state.auditTree.size)")
        }
        state.auditLeaves.append(contentsOf: leaves)
        state.auditTree = tree
    }

    func appendAuditNodes(_ nodes: [AuditNode], from: Int64, to: Int64) throws(StorageError) {
        try AuditNode.checkAppend(
            storedNodeSize: state.auditNodeSize, treeSize: state.auditTree.size, from: from, to: to)
        var stored = state.auditNodes
        for node in nodes {
            // As the databases' primary key (level, idx): a node is stored once.
            guard stored[node.id] == nil else {
                throw StorageError(.internalFailure, "audit node \(node.id.level)/\(node.id.index) is already stored")
            }
            stored[node.id] = node.hash
        }
        state.auditNodes = stored
        state.auditNodeSize = to
    }

    func consumeDeviceEnrolmentNonce(_ nonce: String, userID: String, now: Date) throws(StorageError)
        -> DeviceEnrolmentNonce?
    {
        guard let stored = state.deviceEnrolmentNonces[nonce], stored.userID == userID else { return nil }
        state.deviceEnrolmentNonces[nonce] = nil
        return now < stored.expiresAt ? stored : nil
    }

    func purgeExpired(now: Date, limit: Int) throws(StorageError) -> PurgeResult {
        // The first to expire first, as the SQLite store deletes them.
        let sessions = state.authSessions.filter { $0.value.expiresAt <= now }
            .sorted { $0.value.expiresAt < $1.value.expiresAt }.prefix(max(0, limit))
        for (id, _) in sessions { state.authSessions[id] = nil }
        let srpSessions = state.srpSessions.filter { $0.value.expiresAt <= now }
            .sorted { $0.value.expiresAt < $1.value.expiresAt }.prefix(max(0, limit))
        for (id, _) in srpSessions { state.srpSessions[id] = nil }
        let challenges = state.deviceChallenges.filter { $0.value.expiresAt <= now }
            .sorted { $0.value.expiresAt < $1.value.expiresAt }.prefix(max(0, limit))
        for (id, _) in challenges { state.deviceChallenges[id] = nil }
        let tokens = state.refreshTokens.filter { $0.value.absoluteExpiresAt <= now }
            .sorted { $0.value.absoluteExpiresAt < $1.value.absoluteExpiresAt }.prefix(max(0, limit))
        for (hash, _) in tokens { state.refreshTokens[hash] = nil }
        let proofs = state.dpopProofs.filter { $0.value <= now }.sorted { $0.value < $1.value }.prefix(max(0, limit))
        for (identity, _) in proofs { state.dpopProofs[identity] = nil }
        let nonces = state.deviceEnrolmentNonces.filter { $0.value.expiresAt <= now }
            .sorted { $0.value.expiresAt < $1.value.expiresAt }.prefix(max(0, limit))
        for (nonce, _) in nonces { state.deviceEnrolmentNonces[nonce] = nil }
        let spent = state.spentTokens.filter { $0.value <= now }.sorted { $0.value < $1.value }.prefix(max(0, limit))
        for (jwtID, _) in spent { state.spentTokens[jwtID] = nil }
        let spentSessions = state.spentAuthSessions.filter { $0.value <= now }.sorted { $0.value < $1.value }
            .prefix(max(0, limit))
        for (id, _) in spentSessions { state.spentAuthSessions[id] = nil }
        var result = PurgeResult(
            authSessions: sessions.count + srpSessions.count, deviceChallenges: challenges.count,
            refreshTokens: tokens.count, dpopProofs: proofs.count, deviceEnrolmentNonces: nonces.count,
            spentTokens: spent.count, spentAuthSessions: spentSessions.count)
        (result.loginSessions, result.authorizationCodes) = purgeExpiredHostedLogin(now: now, limit: limit)
        return result
    }

    func recordHeartbeat(at: Date) throws(StorageError) {
        state.heartbeat = at
    }
}
