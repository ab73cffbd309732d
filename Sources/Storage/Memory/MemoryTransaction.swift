import Foundation

/// A reader/writer over a private copy of `MemoryState`; `MemoryStore` publishes `state` when the body returns.
///
/// Reads are here; the writes are in `MemoryTransaction+Writer.swift`.
final class MemoryTransaction: StoreWriter {
    var state: MemoryState

    init(state: MemoryState) {
        self.state = state
    }

    func user(id: String) throws(StorageError) -> User? {
        state.users[id]
    }

    func user(userHandle: [UInt8]) throws(StorageError) -> User? {
        state.users.values.first { $0.userHandle == userHandle }
    }

    func user(realm: String, identifier: UserIdentifier) throws(StorageError) -> User? {
        state.users.values.first { $0.realm == realm && $0.identifier(identifier.kind) == identifier }
    }

    func credential(id credentialID: [UInt8]) throws(StorageError) -> Credential? {
        state.credentials[credentialID]
    }

    func credentials(userID: String) throws(StorageError) -> [Credential] {
        state.credentials.values.filter { $0.userID == userID }.sorted {
            ($0.createdAt, $0.credentialID) < ($1.createdAt, $1.credentialID)
        }
    }

    func authSession(id: String) throws(StorageError) -> AuthSession? {
        state.authSessions[id]
    }

    func refreshToken(hash tokenHash: [UInt8]) throws(StorageError) -> RefreshToken? {
        state.refreshTokens[tokenHash]
    }

    func refreshTokens(familyID: String) throws(StorageError) -> [RefreshToken] {
        state.refreshTokens.values.filter { $0.familyID == familyID }.sorted {
            ($0.createdAt, $0.tokenHash) < ($1.createdAt, $1.tokenHash)
        }
    }

    func sessionStatus(userID: String, familyID: String?) throws(StorageError) -> SessionStatus {
        SessionStatus(
            userExists: state.users[userID] != nil, sessionsRevokedAt: state.sessionsRevokedAt[userID],
            familyRevoked: familyID.map { family in
                state.refreshTokens.values.contains { $0.familyID == family && $0.revokedAt != nil }
            } ?? false)
    }

    func signingKeys() throws(StorageError) -> [SigningKey] {
        state.signingKeys.values.sorted { ($0.createdAt, $0.kid.bytes) < ($1.createdAt, $1.kid.bytes) }
    }

    func deviceKeys(userID: String) throws(StorageError) -> [DeviceKey] {
        state.deviceKeys.values.filter { $0.userID == userID }.sorted {
            ($0.createdAt, $0.keyID.bytes) < ($1.createdAt, $1.keyID.bytes)
        }
    }

    func deviceKey(id keyID: String, userID: String) throws(StorageError) -> DeviceKey? {
        state.deviceKeys[keyID].flatMap { $0.userID == userID ? $0 : nil }
    }

    func deviceChallenge(id challengeID: String) throws(StorageError) -> DeviceChallenge? {
        state.deviceChallenges[challengeID]
    }

    func securityEvents(after seq: Int64, limit: Int) throws(StorageError) -> [SecurityEvent] {
        Array(state.securityEvents.lazy.filter { $0.seq > seq }.prefix(max(0, limit)))
    }

    func auditTree() throws(StorageError) -> AuditTreeState {
        state.auditTree
    }

    func auditLeaves(start: Int64, end: Int64) throws(StorageError) -> [AuditLeaf] {
        let lower = Int(max(0, min(start, Int64(state.auditLeaves.count))))
        let upper = Int(max(Int64(lower), min(end, Int64(state.auditLeaves.count))))
        return Array(state.auditLeaves[lower..<upper])
    }

    func auditNodes(_ ids: [AuditNodeID]) throws(StorageError) -> [AuditNodeID: [UInt8]] {
        var found: [AuditNodeID: [UInt8]] = [:]
        for id in ids {
            if id.level == 0 {
                if id.index >= 0, id.index < state.auditLeaves.count {
                    found[id] = state.auditLeaves[Int(id.index)].leafHash
                }
            } else if let hash = state.auditNodes[id] {
                found[id] = hash
            }
        }
        return found
    }

    func auditNodeSize() throws(StorageError) -> Int64 {
        state.auditNodeSize
    }

    func latestAuditCheckpoint() throws(StorageError) -> AuditCheckpointRecord? {
        state.auditCheckpoints.max { $0.key < $1.key }?.value
    }

    func pendingSecurityEventCount() throws(StorageError) -> Int {
        state.auditPending.count
    }

    func securityEvents(userID: String, limit: Int) throws(StorageError) -> [SecurityEvent] {
        Array(state.securityEvents.filter { $0.userID == userID }.reversed().prefix(max(0, limit)))
    }

    func lastHeartbeat() throws(StorageError) -> Date? {
        state.heartbeat
    }
}

extension String {
    /// The UTF-8 bytes: sorting by them matches SQL's binary collation.
    fileprivate var bytes: [UInt8] { Array(utf8) }
}

/// Byte arrays order lexicographically, as SQL compares blobs (memcmp, then length).
private func < (lhs: [UInt8], rhs: [UInt8]) -> Bool {
    lhs.lexicographicallyPrecedes(rhs)
}

/// (date, bytes) tuples order by date, then bytes.
private func < (lhs: (Date, [UInt8]), rhs: (Date, [UInt8])) -> Bool {
    lhs.0 != rhs.0 ? lhs.0 < rhs.0 : lhs.1 < rhs.1
}
