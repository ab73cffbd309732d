import Foundation

/// The reads of a transaction: each a row or an indexed range a driver reads in one statement. Synchronous (the
/// transaction is already open). Composite reads are defined once over these (`StoreReader+*.swift`).
public protocol StoreReader {
    // MARK: Users, credentials, sessions and tokens

    /// The user with `id`.
    func user(id: String) throws(StorageError) -> User?
    /// The user with the WebAuthn user handle `userHandle` (WebAuthn L3 §7.2 step 6).
    func user(userHandle: [UInt8]) throws(StorageError) -> User?
    /// The user of `realm` with `identifier` (compared exactly: normalise before calling).
    func user(realm: String, identifier: UserIdentifier) throws(StorageError) -> User?
    /// Up to `limit` users with an id after `afterID` (from the first when nil), in bytewise id order.
    func users(afterID: String?, limit: Int) throws(StorageError) -> [User]
    /// The credential with `credentialID`.
    func credential(id credentialID: [UInt8]) throws(StorageError) -> Credential?
    /// The credentials of `userID`, oldest first.
    func credentials(userID: String) throws(StorageError) -> [Credential]
    /// The auth session `id`, not consumed.
    func authSession(id: String) throws(StorageError) -> AuthSession?
    /// The credential (if given and known) and its user: composite, PostgreSQL answers in one join.
    func loginCredential(id credentialID: [UInt8]?) throws(StorageError) -> LoginCredential
    /// The refresh token with `tokenHash`.
    func refreshToken(hash tokenHash: [UInt8]) throws(StorageError) -> RefreshToken?
    /// The tokens of a family, oldest first.
    func refreshTokens(familyID: String) throws(StorageError) -> [RefreshToken]
    /// The checks of an access token of `userID` in family `familyID` (`SessionStatus`), in one read.
    func sessionStatus(userID: String, familyID: String?) throws(StorageError) -> SessionStatus
    /// Whether the single-use token `jwtID` is spent (recorded and not yet purged).
    func isTokenSpent(jwtID: String) throws(StorageError) -> Bool
    /// Whether the sealed auth session `id` is spent (recorded and not yet purged).
    func isAuthSessionSpent(id: String) throws(StorageError) -> Bool
    /// The unused recovery codes of `userID`, by code hash.
    func recoveryCodes(userID: String) throws(StorageError) -> [RecoveryCode]
    /// How many rows of each table outside the audit log name `userID` or `userHandle` (tables from the catalogue).
    func rowsMentioningUser(id userID: String, userHandle: [UInt8]) throws(StorageError) -> [String: Int]

    // MARK: Hosted login

    /// The login session whose cookie value hashes to `idHash`, ended or not.
    func loginSession(idHash: [UInt8]) throws(StorageError) -> LoginSession?
    /// The authorization code whose hash is `codeHash`, redeemed or not.
    func authorizationCode(hash codeHash: [UInt8]) throws(StorageError) -> AuthorizationCode?

    // MARK: Authenticator metadata (FIDO MDS3, schema v19)

    /// The stored metadata BLOB (only the newest is kept), nil before the first load.
    func latestMetadataBLOB() throws(StorageError) -> MetadataBLOBRecord?
    /// The stored BLOB's serial alone: the cheap question a node asks at every refresh.
    func latestMetadataSerial() throws(StorageError) -> Int64?
    /// Up to `limit` credentials of every user whose AAGUID is `aaguid`, after `afterCredentialID` (from the first
    /// when nil), in bytewise credential-id order (indexed: `credentials_aaguid`).
    func credentials(aaguid: [UInt8], afterCredentialID: [UInt8]?, limit: Int) throws(StorageError) -> [Credential]

    // MARK: Organizations

    /// The organization with `id`.
    func organization(id: String) throws(StorageError) -> Organization?
    /// The organization named `name` (compared exactly: names are stored lower-case).
    func organization(name: String) throws(StorageError) -> Organization?
    /// Every organization, by name.
    func organizations() throws(StorageError) -> [Organization]
    /// The members of the organization `organizationID`, by user id.
    func organizationMembers(organizationID: String) throws(StorageError) -> [OrganizationMember]
    /// Whether `userID` is a member of the organization `organizationID`.
    func isOrganizationMember(organizationID: String, userID: String) throws(StorageError) -> Bool

    // MARK: Keys and device keys

    /// Every signing key, retired ones included, oldest first (in a write, locked against other writers of keys).
    func signingKeys() throws(StorageError) -> [SigningKey]
    /// The device keys of `userID` (all statuses), oldest first.
    func deviceKeys(userID: String) throws(StorageError) -> [DeviceKey]
    /// The device key `keyID` if it belongs to `userID`.
    func deviceKey(id keyID: String, userID: String) throws(StorageError) -> DeviceKey?
    /// The device challenge `challengeID`, not consumed.
    func deviceChallenge(id challengeID: String) throws(StorageError) -> DeviceChallenge?

    // MARK: Password fallback (SRP-6a)

    /// The password verifier of `userID`.
    func passwordVerifier(userID: String) throws(StorageError) -> PasswordVerifier?
    /// The password verifier with `identity` in `realm` (compared exactly).
    func passwordVerifier(realm: String, identity: String) throws(StorageError) -> PasswordVerifier?
    /// Up to `limit` verifiers after `afterUserID` (bytewise), but those starting with `excludedPrefix` (when given).
    func passwordVerifiers(afterUserID: String?, excludingPrefix excludedPrefix: [UInt8]?, limit: Int)
        throws(StorageError) -> [PasswordVerifier]
    /// The fallback counter `key`, nil when never incremented or reset.
    func fallbackCounter(key: String) throws(StorageError) -> FallbackCounter?
    /// The server secret `name`, if stored.
    func serverSecret(name: String) throws(StorageError) -> [UInt8]?

    // MARK: Security events, audit log and readiness (docs/audit.md)

    /// Up to `limit` events with `seq > after`, in `seq` order (on PostgreSQL not commit order: read `auditLeaves`).
    func securityEvents(after seq: Int64, limit: Int) throws(StorageError) -> [SecurityEvent]
    /// The newest `limit` events about `userID`, newest first.
    func securityEvents(userID: String, limit: Int) throws(StorageError) -> [SecurityEvent]
    /// How many events wait in the audit queue.
    func pendingSecurityEventCount() throws(StorageError) -> Int
    /// The audit tree's state (size 0 before the first leaf).
    func auditTree() throws(StorageError) -> AuditTreeState
    /// The leaves with `start <= index < end`, in order.
    func auditLeaves(start: Int64, end: Int64) throws(StorageError) -> [AuditLeaf]
    /// The stored hashes of the nodes `ids` (level 0: the leaves' hashes), in one query; absent ids are left out.
    func auditNodes(_ ids: [AuditNodeID]) throws(StorageError) -> [AuditNodeID: [UInt8]]
    /// How many leaves have all their nodes stored (behind the tree's size only while the backfill runs).
    func auditNodeSize() throws(StorageError) -> Int64
    /// The checkpoint of the largest tree, if any was signed.
    func latestAuditCheckpoint() throws(StorageError) -> AuditCheckpointRecord?
    /// The time of the last `StoreWriter.recordHeartbeat(at:)`, if any.
    func lastHeartbeat() throws(StorageError) -> Date?
}
