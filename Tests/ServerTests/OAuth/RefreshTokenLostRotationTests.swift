import Foundation
import Storage
import Synchronization
import TestSupport
import Testing
import Tokens

@testable import Server

/// A presentation that read the token live but lost the store's compare-and-set to a concurrent one (as under
/// a database that lets two writers read the same row, PostgreSQL's READ COMMITTED) gets what a second
/// presentation gets: reuse, and the family is revoked (RFC 9700 §4.14.2).
@Suite("POST /oauth/token, refresh_token grant: a presentation that loses the rotation race is reuse")
struct RefreshTokenLostRotationTests {
    @Test("a stale read of a live token, then a lost compare-and-set: invalid_grant, the family revoked")
    func lostRotationIsReuse() async throws {
        let store = StaleRefreshReadStore()
        let harness = try PasskeyHarness(store: store)
        var authenticator = Passkey()
        let first = try #require(try await harness.signUp(&authenticator)["refresh_token"]?.stringValue)
        let rotated = await harness.refresh(first)
        #expect(rotated.status == 200, "\(rotated.bodyText)")
        let successor = try #require(try rotated.jsonValue()["refresh_token"]?.stringValue)
        // The next write reads `first` as it was before the rotation committed: live.
        store.staleNextRead.withLock { $0 = true }
        let loser = await harness.refresh(first)
        #expect(loser.status == 403, "\(loser.bodyText)")
        #expect(loser.errorCode == "invalid_grant")
        #expect(harness.counted("refresh_token_reuse"))
        #expect(store.lostMarks.withLock { $0 } == 1, "the loser's compare-and-set was refused")
        #expect(await harness.refresh(successor).status == 403)
        #expect(harness.counted("invalid_grant:refresh_revoked"))
    }
}

/// A memory store whose next write, when `staleNextRead` is set, reads a refresh token once as it was before it
/// was rotated or revoked: the snapshot a concurrent writer had before the winner committed.
private final class StaleRefreshReadStore: Store {
    let staleNextRead = Mutex(false)
    /// How many `markRefreshTokenRotated` calls returned false.
    let lostMarks = Mutex(0)
    private let base = MemoryStore()

    func read<T: Sendable>(_ body: @escaping @Sendable (any StoreReader) throws -> T) async throws -> T {
        try await base.read(body)
    }

    func write<T: Sendable>(_ body: @escaping @Sendable (any StoreWriter) throws -> T) async throws -> T {
        let stale = staleNextRead.withLock { flag in
            defer { flag = false }
            return flag
        }
        return try await base.write { writer in
            try body(StaleRefreshReadWriter(base: writer, stale: stale, store: self))
        }
    }

    func close() async { await base.close() }
}

/// Forwards to `base`, except that the first `refreshToken(hash:)` returns the token unrotated and unrevoked
/// when `stale` is set.
private final class StaleRefreshReadWriter: StoreWriter {
    let base: any StoreWriter
    var stale: Bool
    let store: StaleRefreshReadStore

    init(base: any StoreWriter, stale: Bool, store: StaleRefreshReadStore) {
        self.base = base
        self.stale = stale
        self.store = store
    }

    func refreshToken(hash tokenHash: [UInt8]) throws(StorageError) -> Storage.RefreshToken? {
        guard var token = try base.refreshToken(hash: tokenHash) else { return nil }
        if stale {
            stale = false
            token.rotatedAt = nil
            token.revokedAt = nil
        }
        return token
    }

    func user(id: String) throws(StorageError) -> User? { try base.user(id: id) }
    func user(userHandle: [UInt8]) throws(StorageError) -> User? { try base.user(userHandle: userHandle) }
    func user(realm: String, identifier: UserIdentifier) throws(StorageError) -> User? {
        try base.user(realm: realm, identifier: identifier)
    }
    func credential(id credentialID: [UInt8]) throws(StorageError) -> Credential? {
        try base.credential(id: credentialID)
    }
    func credentials(userID: String) throws(StorageError) -> [Credential] { try base.credentials(userID: userID) }
    func authSession(id: String) throws(StorageError) -> AuthSession? { try base.authSession(id: id) }
    func refreshTokens(familyID: String) throws(StorageError) -> [Storage.RefreshToken] {
        try base.refreshTokens(familyID: familyID)
    }
    func signingKeys() throws(StorageError) -> [SigningKey] { try base.signingKeys() }
    func deviceKeys(userID: String) throws(StorageError) -> [DeviceKey] { try base.deviceKeys(userID: userID) }
    func countActiveDeviceKeys(userID: String, excludingDeviceID deviceID: String) throws(StorageError) -> Int {
        try base.countActiveDeviceKeys(userID: userID, excludingDeviceID: deviceID)
    }
    func deviceKey(id keyID: String, userID: String) throws(StorageError) -> DeviceKey? {
        try base.deviceKey(id: keyID, userID: userID)
    }
    func deviceChallenge(id challengeID: String) throws(StorageError) -> DeviceChallenge? {
        try base.deviceChallenge(id: challengeID)
    }
    func securityEvents(after seq: Int64, limit: Int) throws(StorageError) -> [SecurityEvent] {
        try base.securityEvents(after: seq, limit: limit)
    }
    func securityEvents(userID: String, limit: Int) throws(StorageError) -> [SecurityEvent] {
        try base.securityEvents(userID: userID, limit: limit)
    }
    func lastHeartbeat() throws(StorageError) -> Date? { try base.lastHeartbeat() }
    func auditTree() throws(StorageError) -> AuditTreeState { try base.auditTree() }
    func auditLeaves(start: Int64, end: Int64) throws(StorageError) -> [AuditLeaf] {
        try base.auditLeaves(start: start, end: end)
    }
    func auditNodes(_ ids: [AuditNodeID]) throws(StorageError) -> [AuditNodeID: [UInt8]] { try base.auditNodes(ids) }
    func auditNodeSize() throws(StorageError) -> Int64 { try base.auditNodeSize() }
    func latestAuditCheckpoint() throws(StorageError) -> AuditCheckpointRecord? { try base.latestAuditCheckpoint() }
    func pendingSecurityEventCount() throws(StorageError) -> Int { try base.pendingSecurityEventCount() }
    func lockAuditTree() throws(StorageError) -> AuditTreeState? { try base.lockAuditTree() }
    func takePendingSecurityEvents(limit: Int) throws(StorageError) -> [SecurityEvent] {
        try base.takePendingSecurityEvents(limit: limit)
    }
    func appendAuditLeaves(_ leaves: [AuditLeaf], from: AuditTreeState, tree: AuditTreeState) throws(StorageError) {
        try base.appendAuditLeaves(leaves, from: from, tree: tree)
    }
    func appendAuditNodes(_ nodes: [AuditNode], from: Int64, to: Int64) throws(StorageError) {
        try base.appendAuditNodes(nodes, from: from, to: to)
    }
    func insertAuditCheckpoint(_ checkpoint: AuditCheckpointRecord) throws(StorageError) -> Bool {
        try base.insertAuditCheckpoint(checkpoint)
    }
    func passwordVerifier(userID: String) throws(StorageError) -> PasswordVerifier? {
        try base.passwordVerifier(userID: userID)
    }
    func passwordVerifier(realm: String, identity: String) throws(StorageError) -> PasswordVerifier? {
        try base.passwordVerifier(realm: realm, identity: identity)
    }
    func fallbackCounter(key: String) throws(StorageError) -> FallbackCounter? { try base.fallbackCounter(key: key) }
    func serverSecret(name: String) throws(StorageError) -> [UInt8]? { try base.serverSecret(name: name) }
    func storePasswordVerifier(_ verifier: PasswordVerifier) throws(StorageError) {
        try base.storePasswordVerifier(verifier)
    }
    func insertSRPSession(_ session: SRPSession) throws(StorageError) { try base.insertSRPSession(session) }
    func consumeSRPSession(id: String, now: Date) throws(StorageError) -> SRPSession? {
        try base.consumeSRPSession(id: id, now: now)
    }
    func incrementFallbackCounter(key: String, now: Date, restartingBefore cutoff: Date?) throws(StorageError)
        -> FallbackCounter
    {
        try base.incrementFallbackCounter(key: key, now: now, restartingBefore: cutoff)
    }
    func resetFallbackCounters(keys: [String]) throws(StorageError) -> Int {
        try base.resetFallbackCounters(keys: keys)
    }
    func insertServerSecret(name: String, value: [UInt8]) throws(StorageError) -> [UInt8] {
        try base.insertServerSecret(name: name, value: value)
    }
    func insertDeviceEnrolmentNonce(_ nonce: DeviceEnrolmentNonce) throws(StorageError) {
        try base.insertDeviceEnrolmentNonce(nonce)
    }
    func consumeDeviceEnrolmentNonce(_ nonce: String, userID: String, now: Date) throws(StorageError)
        -> DeviceEnrolmentNonce?
    {
        try base.consumeDeviceEnrolmentNonce(nonce, userID: userID, now: now)
    }

    func insertUser(_ user: User, credential: Credential) throws(StorageError) {
        try base.insertUser(user, credential: credential)
    }
    func insertCredential(_ credential: Credential) throws(StorageError) { try base.insertCredential(credential) }
    func recordCredentialUse(_ use: CredentialUse) throws(StorageError) -> Bool { try base.recordCredentialUse(use) }
    func insertAuthSession(_ session: AuthSession) throws(StorageError) { try base.insertAuthSession(session) }
    func consumeAuthSession(id: String, now: Date) throws(StorageError) -> AuthSession? {
        try base.consumeAuthSession(id: id, now: now)
    }
    func insertRefreshToken(_ token: Storage.RefreshToken) throws(StorageError) { try base.insertRefreshToken(token) }
    func markRefreshTokenRotated(presentedHash: [UInt8], now: Date, replacement: Storage.RefreshToken)
        throws(StorageError) -> Bool
    {
        let marked = try base.markRefreshTokenRotated(presentedHash: presentedHash, now: now, replacement: replacement)
        if !marked { store.lostMarks.withLock { $0 += 1 } }
        return marked
    }
    func revokeRefreshTokenFamily(tokenHash: [UInt8], now: Date) throws(StorageError) -> Bool {
        try base.revokeRefreshTokenFamily(tokenHash: tokenHash, now: now)
    }
    func recordDPoPProof(_ use: DPoPProofUse) throws(StorageError) -> Bool { try base.recordDPoPProof(use) }
    func insertSigningKey(_ key: SigningKey) throws(StorageError) { try base.insertSigningKey(key) }
    func retireSigningKey(kid: String, at: Date) throws(StorageError) -> Bool {
        try base.retireSigningKey(kid: kid, at: at)
    }
    func insertDeviceKey(_ key: DeviceKey) throws(StorageError) -> [String] { try base.insertDeviceKey(key) }
    func updateDeviceKeyState(keyID: String, userID: String, state: DeviceKeyState) throws(StorageError) -> Bool {
        try base.updateDeviceKeyState(keyID: keyID, userID: userID, state: state)
    }
    func touchDeviceKey(keyID: String, userID: String, at: Date) throws(StorageError) -> Bool {
        try base.touchDeviceKey(keyID: keyID, userID: userID, at: at)
    }
    func unlockDeviceKeys(userID: String) throws(StorageError) -> Int { try base.unlockDeviceKeys(userID: userID) }
    func insertDeviceChallenge(_ challenge: DeviceChallenge) throws(StorageError) {
        try base.insertDeviceChallenge(challenge)
    }
    func consumeDeviceChallenge(id challengeID: String, keyID: String, userID: String, now: Date)
        throws(StorageError) -> DeviceChallengeConsumption
    {
        try base.consumeDeviceChallenge(id: challengeID, keyID: keyID, userID: userID, now: now)
    }
    func appendSecurityEvent(_ event: SecurityEvent) throws(StorageError) -> SecurityEvent {
        try base.appendSecurityEvent(event)
    }
    func purgeExpired(now: Date, limit: Int) throws(StorageError) -> PurgeResult {
        try base.purgeExpired(now: now, limit: limit)
    }
    func recordHeartbeat(at: Date) throws(StorageError) { try base.recordHeartbeat(at: at) }
    func users(afterID: String?, limit: Int) throws(StorageError) -> [User] {
        try base.users(afterID: afterID, limit: limit)
    }
    func recoveryCodes(userID: String) throws(StorageError) -> [RecoveryCode] {
        try base.recoveryCodes(userID: userID)
    }
    func rowsMentioningUser(id userID: String, userHandle: [UInt8]) throws(StorageError) -> [String: Int] {
        try base.rowsMentioningUser(id: userID, userHandle: userHandle)
    }
    func renameCredential(id credentialID: [UInt8], userID: String, name: String?) throws(StorageError) -> Bool {
        try base.renameCredential(id: credentialID, userID: userID, name: name)
    }
    func deleteCredential(id credentialID: [UInt8], userID: String) throws(StorageError) -> Bool {
        try base.deleteCredential(id: credentialID, userID: userID)
    }
    func replaceRecoveryCodes(userID: String, with codes: [RecoveryCode]) throws(StorageError) -> Int {
        try base.replaceRecoveryCodes(userID: userID, with: codes)
    }
    func consumeRecoveryCode(userID: String, codeHash: [UInt8]) throws(StorageError) -> Bool {
        try base.consumeRecoveryCode(userID: userID, codeHash: codeHash)
    }
    func revokeRefreshTokens(userID: String, now: Date) throws(StorageError) -> Int {
        try base.revokeRefreshTokens(userID: userID, now: now)
    }
    func deleteUser(id: String) throws(StorageError) -> Bool { try base.deleteUser(id: id) }
    func isTokenSpent(jwtID: String) throws(StorageError) -> Bool { try base.isTokenSpent(jwtID: jwtID) }
    func spendToken(jwtID: String, expiresAt: Date) throws(StorageError) -> Bool {
        try base.spendToken(jwtID: jwtID, expiresAt: expiresAt)
    }
}
