import Foundation

/// The writes of a transaction: each a row insert, update or delete by key (or one bounded batch) that a driver does
/// in one statement, atomic on its own and within the `Store.write` body. Composite writes (consuming several rows,
/// named inserts, revocations) are defined once over these in `StoreWriter+*.swift`; a requirement marked composite
/// has its definition there, which a driver may replace with one statement (the behaviour suite runs both).
public protocol StoreWriter: StoreReader {
    // MARK: Rows by key

    /// Stores `record` unless a row with its key exists; returns whether it did (the named inserts throw instead).
    func insert(_ record: NewRecord) throws(StorageError) -> Bool
    /// Deletes the row `key`; returns whether there was one (of concurrent callers, one gets true).
    func delete(_ key: RecordKey) throws(StorageError) -> Bool
    /// Sets the sealed bytes `value` to `replacement` if still `expected` (compare-and-set); returns whether it did.
    func replace(_ value: SealedValue, expected: [UInt8], replacement: [UInt8]) throws(StorageError) -> Bool
    /// Inserts a user with their first credential. - Throws: `.conflict` naming the first clash (`checkNewUser`).
    func insertUser(_ user: User, credential: Credential) throws(StorageError)
    /// Sets a credential's counter, backup state and last use if its counter is still the expected one (§7.2 step 22).
    func recordCredentialUse(_ use: CredentialUse) throws(StorageError) -> Bool
    /// Sets the name of the credential `credentialID` of `userID`; false when no such credential is theirs.
    func renameCredential(id credentialID: [UInt8], userID: String, name: String?) throws(StorageError) -> Bool
    /// Everything a verified passkey login writes: composite (`StoreWriter+LoginCompletion.swift`).
    func completeLogin(_ login: LoginCompletion) throws(StorageError) -> LoginCompletion.Outcome

    // MARK: Taking single-use rows (a delete that returns the row; one of concurrent callers gets it)

    /// Deletes the auth session `id`; returns it unless it had expired at `now`.
    func consumeAuthSession(id: String, now: Date) throws(StorageError) -> AuthSession?
    /// Deletes the SRP session `id`; returns it unless it had expired at `now`.
    func consumeSRPSession(id: String, now: Date) throws(StorageError) -> SRPSession?
    /// Deletes `userID`'s enrolment nonce `nonce` (another user's stays); returns it unless it had expired at `now`.
    func consumeDeviceEnrolmentNonce(_ nonce: String, userID: String, now: Date) throws(StorageError)
        -> DeviceEnrolmentNonce?
    /// Marks the challenge consumed if it is `keyID`'s and `userID`'s, unused and live; says why not otherwise.
    func consumeDeviceChallenge(id challengeID: String, keyID: String, userID: String, now: Date)
        throws(StorageError) -> DeviceChallengeConsumption

    // MARK: Hosted login

    /// Sets `endedAt` of the login session `idHash` to `at` if it is not ended yet; returns whether it did (of
    /// concurrent callers, one gets true).
    func endLoginSession(idHash: [UInt8], at: Date) throws(StorageError) -> Bool
    /// Ends every live login session of `userID` (of every user when nil) at `at`; returns how many it ended.
    func endLoginSessions(userID: String?, at: Date) throws(StorageError) -> Int
    /// Marks the authorization code `codeHash` redeemed at `at` under the refresh family `refreshFamily` iff it is
    /// not redeemed yet (compare-and-set); returns whether it did (of concurrent callers, on any node, one gets true).
    func redeemAuthorizationCode(hash codeHash: [UInt8], at: Date, refreshFamily: String) throws(StorageError) -> Bool

    // MARK: Authenticator metadata (FIDO MDS3)

    /// Stores `record` as the metadata BLOB unless the stored one is as new or newer, deciding inside this write
    /// (`MetadataBLOBStoreOutcome.deciding`; on PostgreSQL under a table lock, so two nodes loading at once cannot
    /// go backwards); a stored BLOB replaces every older row.
    func storeMetadataBLOB(_ record: MetadataBLOBRecord) throws(StorageError) -> MetadataBLOBStoreOutcome

    // MARK: Tokens and keys

    /// Marks the token `presentedHash` rotated into `replacement` (its `successorHash`) and stores `replacement` iff
    /// it is neither rotated nor revoked.
    func markRefreshTokenRotated(presentedHash: [UInt8], now: Date, replacement: RefreshToken)
        throws(StorageError) -> Bool
    /// A retry of the rotation of `presentedHash` (`RefreshTokenPolicy.Decision.retry`), iff that token is unrevoked
    /// and its successor is still `supersededHash`, neither rotated nor revoked: marks the successor rotated at `now`
    /// with no successor of its own (spent: presenting it is reuse), names `replacement` as the token's successor
    /// and stores it. Of concurrent callers (and a concurrent rotation of the successor), one gets true.
    func reissueRefreshToken(presentedHash: [UInt8], supersededHash: [UInt8], now: Date, replacement: RefreshToken)
        throws(StorageError) -> Bool
    /// Revokes the live refresh tokens of `scope`; returns how many families had one (`RefreshTokenRevocation`).
    func revokeRefreshTokens(_ scope: RefreshTokenRevocation, now: Date) throws(StorageError) -> Int
    /// Marks the signing key `kid` retired at `at` unless it already is; returns whether it changed.
    func retireSigningKey(kid: String, at: Date) throws(StorageError) -> Bool
    /// Sets the status, failures, lock and revocation times of `userID`'s key `keyID`; false when not theirs.
    func updateDeviceKeyState(keyID: String, userID: String, state: DeviceKeyState) throws(StorageError) -> Bool
    /// Sets `lastUsedAt` of `userID`'s key `keyID`; false when not theirs.
    func touchDeviceKey(keyID: String, userID: String, at: Date) throws(StorageError) -> Bool

    // MARK: Password fallback and accounts

    /// Stores `verifier` as its user's only one. - Throws: `.conflict(.passwordIdentity)` (another user's identity).
    func storePasswordVerifier(_ verifier: PasswordVerifier) throws(StorageError)
    /// Adds one to the counter `key` at `now` (from one again if last counted before `cutoff`), atomically.
    func incrementFallbackCounter(key: String, now: Date, restartingBefore cutoff: Date?) throws(StorageError)
        -> FallbackCounter
    /// Takes one back from the counter `key` (deleting it at zero, keeping its time); a missing one stays missing.
    func decrementFallbackCounter(key: String) throws(StorageError)
    /// Reads the counters `keys` and holds them until the write ends (a concurrent locker waits for it).
    func lockFallbackCounters(keys: [String]) throws(StorageError) -> [String: FallbackCounter]
    /// Replaces every recovery code of `userID` with `codes`; returns how many were revoked (`.notFound`: no user).
    func replaceRecoveryCodes(userID: String, with codes: [RecoveryCode]) throws(StorageError) -> Int
    /// Deletes the user `id` and every row of theirs outside the audit log; false when there is no such user.
    func deleteUser(id: String) throws(StorageError) -> Bool

    // MARK: Housekeeping, security events and the audit log (docs/audit.md)

    /// Deletes at most `limit` rows of each expiring kind past its expiry at `now`, the first to expire first.
    func purgeExpired(now: Date, limit: Int) throws(StorageError) -> PurgeResult
    /// Deletes at most `limit` counters starting with `keyPrefix` last counted before `cutoff`, oldest first.
    func purgeFallbackCounters(keyPrefix: String, lastBefore cutoff: Date, limit: Int) throws(StorageError) -> Int
    /// Of the `limit` oldest events, deletes those before `cutoff` that are in the audit log; returns how many.
    func purgeSecurityEvents(before cutoff: Date, limit: Int) throws(StorageError) -> Int
    /// Appends `event` with a new unique `seq` and queues it for the audit log in the same write.
    func appendSecurityEvent(_ event: SecurityEvent) throws(StorageError) -> SecurityEvent
    /// The audit tree's state, locked for this write; nil when another sequencer holds it now.
    func lockAuditTree() throws(StorageError) -> AuditTreeState?
    /// Takes up to `limit` committed events from the audit queue, oldest seq first.
    func takePendingSecurityEvents(limit: Int) throws(StorageError) -> [SecurityEvent]
    /// Appends `leaves` at `from.size` and stores `tree`. - Throws: `.internalFailure` when they do not fit.
    func appendAuditLeaves(_ leaves: [AuditLeaf], from: AuditTreeState, tree: AuditTreeState) throws(StorageError)
    /// Stores the nodes completed by the leaves [`from`, `to`) and advances `auditNodeSize()` to `to`.
    func appendAuditNodes(_ nodes: [AuditNode], from: Int64, to: Int64) throws(StorageError)
    /// Records that the store accepted a write at `at` (one row, overwritten: `/readyz`).
    func recordHeartbeat(at: Date) throws(StorageError)
}
