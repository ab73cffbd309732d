import Foundation

/// The read operations available inside a transaction. Synchronous: the transaction is already open.
public protocol StoreReader {
    // MARK: Users and credentials

    /// The user with `id`.
    func user(id: String) throws(StorageError) -> User?
    /// The user with the WebAuthn user handle `userHandle` (discoverable login, WebAuthn L3 §7.2 step 6).
    func user(userHandle: [UInt8]) throws(StorageError) -> User?
    /// The user of `realm` with `identifier` (compared exactly: normalise before calling).
    func user(realm: String, identifier: UserIdentifier) throws(StorageError) -> User?
    /// The credential with `credentialID`.
    func credential(id credentialID: [UInt8]) throws(StorageError) -> Credential?
    /// The credentials of `userID`, oldest first.
    func credentials(userID: String) throws(StorageError) -> [Credential]

    // MARK: Sessions and tokens

    /// The auth session with `id`, without consuming it (tests and diagnostics).
    func authSession(id: String) throws(StorageError) -> AuthSession?
    /// The auth session `sessionID` with the credential `credentialID` (when given and registered) and its user,
    /// read together: a login's lookup before it verifies the assertion. nil when the session is unknown; its kind
    /// and expiry are the caller's to judge. Defined by the extension in `StoreReader+LoginLookup.swift`, which a
    /// driver may replace with one statement giving the same answers.
    func loginLookup(sessionID: String, credentialID: [UInt8]?) throws(StorageError) -> LoginLookup?
    /// The refresh token with `tokenHash`.
    func refreshToken(hash tokenHash: [UInt8]) throws(StorageError) -> RefreshToken?
    /// The tokens of a family, oldest first.
    func refreshTokens(familyID: String) throws(StorageError) -> [RefreshToken]
    /// The session checks of an access token of `userID` whose family (`sid`) is `familyID` (nil for a token
    /// without one): one read, on passkeyd's own endpoints (`SessionStatus`).
    func sessionStatus(userID: String, familyID: String?) throws(StorageError) -> SessionStatus

    // MARK: Signing keys

    /// Every signing key, retired ones included, oldest first.
    func signingKeys() throws(StorageError) -> [SigningKey]

    // MARK: Device keys

    /// The device keys of `userID` (all statuses), oldest first.
    func deviceKeys(userID: String) throws(StorageError) -> [DeviceKey]
    /// How many keys of `userID` are usable (active or locked, not revoked), leaving out those of device
    /// `deviceID`: what counts against a per-user key limit when that device enrols (it replaces its own keys).
    func countActiveDeviceKeys(userID: String, excludingDeviceID deviceID: String) throws(StorageError) -> Int
    /// The device key `keyID` if it belongs to `userID` (nil for someone else's key).
    func deviceKey(id keyID: String, userID: String) throws(StorageError) -> DeviceKey?
    /// The device challenge `challengeID`, without consuming it.
    func deviceChallenge(id challengeID: String) throws(StorageError) -> DeviceChallenge?

    // MARK: Security events

    /// Up to `limit` events with `seq > after`, in `seq` order. On PostgreSQL seqs come from a sequence: one that
    /// commits late may have a smaller seq than one already read; the audit log (`auditLeaves`) is the gap-free,
    /// commit-ordered reading.
    func securityEvents(after seq: Int64, limit: Int) throws(StorageError) -> [SecurityEvent]
    /// The newest `limit` events about user `userID`, newest first (the device-key history of
    /// `GET /device-keys`).
    func securityEvents(userID: String, limit: Int) throws(StorageError) -> [SecurityEvent]

    // MARK: Audit log

    /// The audit tree's state (size 0 before the first entry).
    func auditTree() throws(StorageError) -> AuditTreeState
    /// The leaves with `start <= index < end`, in order.
    func auditLeaves(start: Int64, end: Int64) throws(StorageError) -> [AuditLeaf]
    /// The stored hashes of the nodes `ids` (level 0: the leaves' hashes), in one query; ids not stored (yet) are
    /// absent. What an inclusion or consistency proof reads (docs/audit.md).
    func auditNodes(_ ids: [AuditNodeID]) throws(StorageError) -> [AuditNodeID: [UInt8]]
    /// How many leaves have their nodes stored: every node within the first `auditNodeSize()` leaves is, so a proof
    /// of a tree no larger reads only nodes. Behind the tree's size only while leaves appended without nodes (before
    /// schema v10, or by an older binary) wait for the backfill (docs/audit.md).
    func auditNodeSize() throws(StorageError) -> Int64
    /// The checkpoint of the largest tree, if any was signed.
    func latestAuditCheckpoint() throws(StorageError) -> AuditCheckpointRecord?
    /// How many events wait in the audit queue.
    func pendingSecurityEventCount() throws(StorageError) -> Int
    // MARK: Password fallback (SRP-6a)

    /// The password verifier of `userID`.
    func passwordVerifier(userID: String) throws(StorageError) -> PasswordVerifier?
    /// The password verifier with `identity` in `realm` (compared exactly).
    func passwordVerifier(realm: String, identity: String) throws(StorageError) -> PasswordVerifier?
    /// Up to `limit` password verifiers in user-id order (bytewise), after `afterUserID` (from the first if nil),
    /// leaving out those whose verifier bytes start with `excludedPrefix` (none if nil): a page of a walk over the
    /// verifiers not yet sealed under the current key (at start), filtered where the rows are.
    func passwordVerifiers(afterUserID: String?, excludingPrefix excludedPrefix: [UInt8]?, limit: Int)
        throws(StorageError) -> [PasswordVerifier]
    /// The fallback counter `key`, nil when it was never incremented or was reset.
    func fallbackCounter(key: String) throws(StorageError) -> FallbackCounter?
    /// The server secret `name` (shared by every node on this store), if one was stored.
    func serverSecret(name: String) throws(StorageError) -> [UInt8]?

    // MARK: Passkey lifecycle (recovery codes, operators, account deletion)

    /// Up to `limit` users with an id greater than `afterID` (all when nil), in id order: a page of the operator's
    /// `passkeyd users list`.
    func users(afterID: String?, limit: Int) throws(StorageError) -> [User]
    /// The unused recovery codes of `userID`.
    func recoveryCodes(userID: String) throws(StorageError) -> [RecoveryCode]
    /// For every table outside the audit log (`security_events` and the audit tables), how many of its rows
    /// name `userID` or `userHandle` in any column: what `deleteUser` must bring to nothing. The tables are
    /// enumerated from the database's catalogue, so a table added later is covered without changing this.
    /// Tables without such rows are left out.
    func rowsMentioningUser(id userID: String, userHandle: [UInt8]) throws(StorageError) -> [String: Int]
    /// Whether the single-use token `jwtID` (its `jti`) is spent: `StoreWriter.spendToken` recorded it and
    /// housekeeping has not purged it yet (it is past its expiry then, so its verifier refuses it anyway).
    func isTokenSpent(jwtID: String) throws(StorageError) -> Bool

    // MARK: Readiness

    /// The time of the last `StoreWriter.recordHeartbeat(at:)`, if any.
    func lastHeartbeat() throws(StorageError) -> Date?
}
