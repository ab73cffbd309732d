import Foundation
import Storage

/// A `StoreReader` that forwards every requirement to `reader`: tests subclass it and override the operations they
/// observe or alter (a counting reader, a stale read), so that no test keeps its own copy of the whole protocol.
/// The composites defined in extensions (`StoreReader+*.swift`) are not requirements: they run over these, so an
/// override of a primitive is seen by them too.
open class ForwardingStoreReader: StoreReader {
    public let reader: any StoreReader

    public init(_ reader: any StoreReader) {
        self.reader = reader
    }

    open func user(id: String) throws(StorageError) -> User? {
        try reader.user(id: id)
    }

    open func user(userHandle: [UInt8]) throws(StorageError) -> User? {
        try reader.user(userHandle: userHandle)
    }

    open func user(realm: String, identifier: UserIdentifier) throws(StorageError) -> User? {
        try reader.user(realm: realm, identifier: identifier)
    }

    open func users(afterID: String?, limit: Int) throws(StorageError) -> [User] {
        try reader.users(afterID: afterID, limit: limit)
    }

    open func credential(id credentialID: [UInt8]) throws(StorageError) -> Credential? {
        try reader.credential(id: credentialID)
    }

    open func credentials(userID: String) throws(StorageError) -> [Credential] {
        try reader.credentials(userID: userID)
    }

    open func authSession(id: String) throws(StorageError) -> AuthSession? {
        try reader.authSession(id: id)
    }

    open func loginCredential(id credentialID: [UInt8]?) throws(StorageError) -> LoginCredential {
        try reader.loginCredential(id: credentialID)
    }

    open func refreshToken(hash tokenHash: [UInt8]) throws(StorageError) -> RefreshToken? {
        try reader.refreshToken(hash: tokenHash)
    }

    open func refreshTokens(familyID: String) throws(StorageError) -> [RefreshToken] {
        try reader.refreshTokens(familyID: familyID)
    }

    open func sessionStatus(userID: String, familyID: String?) throws(StorageError) -> SessionStatus {
        try reader.sessionStatus(userID: userID, familyID: familyID)
    }

    open func isTokenSpent(jwtID: String) throws(StorageError) -> Bool {
        try reader.isTokenSpent(jwtID: jwtID)
    }

    open func isAuthSessionSpent(id: String) throws(StorageError) -> Bool {
        try reader.isAuthSessionSpent(id: id)
    }

    open func loginSession(idHash: [UInt8]) throws(StorageError) -> LoginSession? {
        try reader.loginSession(idHash: idHash)
    }

    open func authorizationCode(hash codeHash: [UInt8]) throws(StorageError) -> AuthorizationCode? {
        try reader.authorizationCode(hash: codeHash)
    }

    open func latestMetadataBLOB() throws(StorageError) -> MetadataBLOBRecord? {
        try reader.latestMetadataBLOB()
    }

    open func latestMetadataSerial() throws(StorageError) -> Int64? {
        try reader.latestMetadataSerial()
    }

    open func credentials(aaguid: [UInt8], afterCredentialID: [UInt8]?, limit: Int) throws(StorageError)
        -> [Credential]
    {
        try reader.credentials(aaguid: aaguid, afterCredentialID: afterCredentialID, limit: limit)
    }

    open func organization(id: String) throws(StorageError) -> Organization? {
        try reader.organization(id: id)
    }

    open func organization(name: String) throws(StorageError) -> Organization? {
        try reader.organization(name: name)
    }

    open func organizations() throws(StorageError) -> [Organization] {
        try reader.organizations()
    }

    open func organizationMembers(organizationID: String) throws(StorageError) -> [OrganizationMember] {
        try reader.organizationMembers(organizationID: organizationID)
    }

    open func isOrganizationMember(organizationID: String, userID: String) throws(StorageError) -> Bool {
        try reader.isOrganizationMember(organizationID: organizationID, userID: userID)
    }

    open func recoveryCodes(userID: String) throws(StorageError) -> [RecoveryCode] {
        try reader.recoveryCodes(userID: userID)
    }

    open func rowsMentioningUser(id userID: String, userHandle: [UInt8]) throws(StorageError) -> [String: Int] {
        try reader.rowsMentioningUser(id: userID, userHandle: userHandle)
    }

    open func signingKeys() throws(StorageError) -> [SigningKey] {
        try reader.signingKeys()
    }

    open func deviceKeys(userID: String) throws(StorageError) -> [DeviceKey] {
        try reader.deviceKeys(userID: userID)
    }

    open func deviceKey(id keyID: String, userID: String) throws(StorageError) -> DeviceKey? {
        try reader.deviceKey(id: keyID, userID: userID)
    }

    open func deviceChallenge(id challengeID: String) throws(StorageError) -> DeviceChallenge? {
        try reader.deviceChallenge(id: challengeID)
    }

    open func passwordVerifier(userID: String) throws(StorageError) -> PasswordVerifier? {
        try reader.passwordVerifier(userID: userID)
    }

    open func passwordVerifier(realm: String, identity: String) throws(StorageError) -> PasswordVerifier? {
        try reader.passwordVerifier(realm: realm, identity: identity)
    }

    open func passwordVerifiers(afterUserID: String?, excludingPrefix excludedPrefix: [UInt8]?, limit: Int)
        throws(StorageError) -> [PasswordVerifier]
    {
        try reader.passwordVerifiers(afterUserID: afterUserID, excludingPrefix: excludedPrefix, limit: limit)
    }

    open func fallbackCounter(key: String) throws(StorageError) -> FallbackCounter? {
        try reader.fallbackCounter(key: key)
    }

    open func serverSecret(name: String) throws(StorageError) -> [UInt8]? {
        try reader.serverSecret(name: name)
    }

    open func securityEvents(after seq: Int64, limit: Int) throws(StorageError) -> [SecurityEvent] {
        try reader.securityEvents(after: seq, limit: limit)
    }

    open func securityEvents(userID: String, limit: Int) throws(StorageError) -> [SecurityEvent] {
        try reader.securityEvents(userID: userID, limit: limit)
    }

    open func pendingSecurityEventCount() throws(StorageError) -> Int {
        try reader.pendingSecurityEventCount()
    }

    open func auditTree() throws(StorageError) -> AuditTreeState {
        try reader.auditTree()
    }

    open func auditLeaves(start: Int64, end: Int64) throws(StorageError) -> [AuditLeaf] {
        try reader.auditLeaves(start: start, end: end)
    }

    open func auditNodes(_ ids: [AuditNodeID]) throws(StorageError) -> [AuditNodeID: [UInt8]] {
        try reader.auditNodes(ids)
    }

    open func auditNodeSize() throws(StorageError) -> Int64 {
        try reader.auditNodeSize()
    }

    open func latestAuditCheckpoint() throws(StorageError) -> AuditCheckpointRecord? {
        try reader.latestAuditCheckpoint()
    }

    open func lastHeartbeat() throws(StorageError) -> Date? {
        try reader.lastHeartbeat()
    }
}

/// A `StoreWriter` that forwards every requirement to `writer` (see `ForwardingStoreReader`).
open class ForwardingStoreWriter: ForwardingStoreReader, StoreWriter {
    public let writer: any StoreWriter

    public init(_ writer: any StoreWriter) {
        self.writer = writer
        super.init(writer)
    }

    open func insert(_ record: NewRecord) throws(StorageError) -> Bool {
        try writer.insert(record)
    }

    open func delete(_ key: RecordKey) throws(StorageError) -> Bool {
        try writer.delete(key)
    }

    open func replace(_ value: SealedValue, expected: [UInt8], replacement: [UInt8]) throws(StorageError) -> Bool {
        try writer.replace(value, expected: expected, replacement: replacement)
    }

    open func insertUser(_ user: User, credential: Credential) throws(StorageError) {
        try writer.insertUser(user, credential: credential)
    }

    open func recordCredentialUse(_ use: CredentialUse) throws(StorageError) -> Bool {
        try writer.recordCredentialUse(use)
    }

    open func storeMetadataBLOB(_ record: MetadataBLOBRecord) throws(StorageError) -> MetadataBLOBStoreOutcome {
        try writer.storeMetadataBLOB(record)
    }

    open func endLoginSession(idHash: [UInt8], at: Date) throws(StorageError) -> Bool {
        try writer.endLoginSession(idHash: idHash, at: at)
    }

    open func endLoginSessions(userID: String?, at: Date) throws(StorageError) -> Int {
        try writer.endLoginSessions(userID: userID, at: at)
    }

    open func redeemAuthorizationCode(hash codeHash: [UInt8], at: Date, refreshFamily: String)
        throws(StorageError) -> Bool
    {
        try writer.redeemAuthorizationCode(hash: codeHash, at: at, refreshFamily: refreshFamily)
    }

    open func renameCredential(id credentialID: [UInt8], userID: String, name: String?) throws(StorageError) -> Bool {
        try writer.renameCredential(id: credentialID, userID: userID, name: name)
    }

    open func completeLogin(_ login: LoginCompletion) throws(StorageError) -> LoginCompletion.Outcome {
        try writer.completeLogin(login)
    }

    open func consumeAuthSession(id: String, now: Date) throws(StorageError) -> AuthSession? {
        try writer.consumeAuthSession(id: id, now: now)
    }

    open func consumeSRPSession(id: String, now: Date) throws(StorageError) -> SRPSession? {
        try writer.consumeSRPSession(id: id, now: now)
    }

    open func consumeDeviceEnrolmentNonce(_ nonce: String, userID: String, now: Date) throws(StorageError)
        -> DeviceEnrolmentNonce?
    {
        try writer.consumeDeviceEnrolmentNonce(nonce, userID: userID, now: now)
    }

    open func consumeDeviceChallenge(id challengeID: String, keyID: String, userID: String, now: Date)
        throws(StorageError) -> DeviceChallengeConsumption
    {
        try writer.consumeDeviceChallenge(id: challengeID, keyID: keyID, userID: userID, now: now)
    }

    open func markRefreshTokenRotated(presentedHash: [UInt8], now: Date, replacement: RefreshToken) throws(StorageError)
        -> Bool
    {
        try writer.markRefreshTokenRotated(presentedHash: presentedHash, now: now, replacement: replacement)
    }

    open func reissueRefreshToken(
        presentedHash: [UInt8], supersededHash: [UInt8], now: Date, replacement: RefreshToken
    ) throws(StorageError) -> Bool {
        try writer.reissueRefreshToken(
            presentedHash: presentedHash, supersededHash: supersededHash, now: now, replacement: replacement)
    }

    open func revokeRefreshTokens(_ scope: RefreshTokenRevocation, now: Date) throws(StorageError) -> Int {
        try writer.revokeRefreshTokens(scope, now: now)
    }

    open func retireSigningKey(kid: String, at: Date) throws(StorageError) -> Bool {
        try writer.retireSigningKey(kid: kid, at: at)
    }

    open func updateDeviceKeyState(keyID: String, userID: String, state: DeviceKeyState) throws(StorageError) -> Bool {
        try writer.updateDeviceKeyState(keyID: keyID, userID: userID, state: state)
    }

    open func touchDeviceKey(keyID: String, userID: String, at: Date) throws(StorageError) -> Bool {
        try writer.touchDeviceKey(keyID: keyID, userID: userID, at: at)
    }

    open func storePasswordVerifier(_ verifier: PasswordVerifier) throws(StorageError) {
        try writer.storePasswordVerifier(verifier)
    }

    open func incrementFallbackCounter(key: String, now: Date, restartingBefore cutoff: Date?) throws(StorageError)
        -> FallbackCounter
    {
        try writer.incrementFallbackCounter(key: key, now: now, restartingBefore: cutoff)
    }

    open func decrementFallbackCounter(key: String) throws(StorageError) {
        try writer.decrementFallbackCounter(key: key)
    }

    open func lockFallbackCounters(keys: [String]) throws(StorageError) -> [String: FallbackCounter] {
        try writer.lockFallbackCounters(keys: keys)
    }

    open func replaceRecoveryCodes(userID: String, with codes: [RecoveryCode]) throws(StorageError) -> Int {
        try writer.replaceRecoveryCodes(userID: userID, with: codes)
    }

    open func deleteUser(id: String) throws(StorageError) -> Bool {
        try writer.deleteUser(id: id)
    }

    open func purgeExpired(now: Date, limit: Int) throws(StorageError) -> PurgeResult {
        try writer.purgeExpired(now: now, limit: limit)
    }

    open func purgeFallbackCounters(keyPrefix: String, lastBefore cutoff: Date, limit: Int) throws(StorageError) -> Int
    {
        try writer.purgeFallbackCounters(keyPrefix: keyPrefix, lastBefore: cutoff, limit: limit)
    }

    open func purgeSecurityEvents(before cutoff: Date, limit: Int) throws(StorageError) -> Int {
        try writer.purgeSecurityEvents(before: cutoff, limit: limit)
    }

    open func appendSecurityEvent(_ event: SecurityEvent) throws(StorageError) -> SecurityEvent {
        try writer.appendSecurityEvent(event)
    }

    open func lockAuditTree() throws(StorageError) -> AuditTreeState? {
        try writer.lockAuditTree()
    }

    open func takePendingSecurityEvents(limit: Int) throws(StorageError) -> [SecurityEvent] {
        try writer.takePendingSecurityEvents(limit: limit)
    }

    open func appendAuditLeaves(_ leaves: [AuditLeaf], from: AuditTreeState, tree: AuditTreeState) throws(StorageError)
    {
        try writer.appendAuditLeaves(leaves, from: from, tree: tree)
    }

    open func appendAuditNodes(_ nodes: [AuditNode], from: Int64, to: Int64) throws(StorageError) {
        try writer.appendAuditNodes(nodes, from: from, to: to)
    }

    open func recordHeartbeat(at: Date) throws(StorageError) {
        try writer.recordHeartbeat(at: at)
    }
}
