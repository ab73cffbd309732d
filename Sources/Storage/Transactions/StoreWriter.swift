import Foundation

/// The read-write operations available inside a write transaction. Each operation is atomic on its own, and the
/// whole `Store.write` body is atomic as a unit.
public protocol StoreWriter: StoreReader {
    // MARK: Users and credentials

    /// Inserts a new user with their first credential.
    /// - Throws: `.conflict` naming the constraint (`.userID`, `.userHandle`, `.userEmail`, `.userPhoneNumber`,
    ///   `.userUsername`, `.credentialID`); nothing is written then.
    func insertUser(_ user: User, credential: Credential) throws(StorageError)
    /// Inserts another credential for an existing user.
    /// - Throws: `.conflict(.credentialID)`, or `.notFound` if the user does not exist.
    func insertCredential(_ credential: Credential) throws(StorageError)
    /// Records a verified assertion: new counter, backup state and last-use time, but only if the stored counter
    /// still equals `use.expectedSignCount` (compare-and-set, so two racing assertions cannot both pass the
    /// WebAuthn L3 §7.2 step 22 counter check). Returns whether the update applied (false also when the credential
    /// does not exist).
    func recordCredentialUse(_ use: CredentialUse) throws(StorageError) -> Bool

    /// Everything a verified passkey login writes, as one unit: see `LoginCompletion` and the definition in
    /// `StoreWriter+LoginCompletion.swift`, which drivers answering otherwise must match.
    func completeLogin(_ login: LoginCompletion) throws(StorageError) -> LoginCompletion.Outcome
    /// What any login of `userID` lifts (the definition is in `StoreWriter+LoginCompletion.swift`); returns how
    /// many counters existed.
    func liftLoginLocks(userID: String, includingPasswordLock: Bool) throws(StorageError) -> Int

    // MARK: Auth sessions

    /// Stores a new auth session. - Throws: `.conflict(.authSessionID)`.
    func insertAuthSession(_ session: AuthSession) throws(StorageError)
    /// Deletes the session `id` and returns it if it had not expired at `now`. An expired session is deleted too
    /// and nil is returned. Exactly one of any number of concurrent callers gets the record.
    func consumeAuthSession(id: String, now: Date) throws(StorageError) -> AuthSession?

    // MARK: Refresh tokens

    /// Stores a refresh token (first of a family, after a login). - Throws: `.conflict(.refreshTokenHash)`.
    func insertRefreshToken(_ token: RefreshToken) throws(StorageError)
    /// Marks the token with `presentedHash` rotated at `now` and stores `replacement`, if and only if the token is
    /// neither rotated nor revoked: a compare-and-set, so of any number of concurrent callers exactly one gets true
    /// (RFC 9700 §4.14.2 single use). Whether the token may rotate at all (expiry, reuse) is the caller's decision
    /// (`Tokens.RefreshTokenPolicy`); this guarantees only that one presentation wins. Returns false, writing
    /// nothing, when the token is unknown, already rotated or revoked.
    /// - Throws: `.conflict(.refreshTokenHash)` if `replacement`'s hash exists; nothing is written then.
    func markRefreshTokenRotated(presentedHash: [UInt8], now: Date, replacement: RefreshToken)
        throws(StorageError) -> Bool
    /// Revokes every token of the family that `tokenHash` belongs to (RFC 7009 §2.1: revoking a refresh token
    /// may revoke its whole grant; RFC 9700 §4.14.2: what reuse of a rotated token does). Returns false when no token has that hash (RFC 7009 §2.2: still a 200).
    func revokeRefreshTokenFamily(tokenHash: [UInt8], now: Date) throws(StorageError) -> Bool

    // MARK: DPoP proofs

    /// Remembers an accepted DPoP proof and returns true, or returns false, writing nothing, when a proof with the
    /// same key thumbprint and `jti` is already remembered (RFC 9449 §11.1: a replay). Single use: of any number
    /// of concurrent callers with one (thumbprint, jti), exactly one gets true.
    func recordDPoPProof(_ use: DPoPProofUse) throws(StorageError) -> Bool

    // MARK: Signing keys

    /// Stores a signing key. - Throws: `.conflict(.signingKeyID)`.
    func insertSigningKey(_ key: SigningKey) throws(StorageError)
    /// Marks the key `kid` retired at `at` (only if not already retired). Returns whether a key changed.
    func retireSigningKey(kid: String, at: Date) throws(StorageError) -> Bool
    /// Replaces the stored private key of `kid` with `replacement` if it is still `expected` (compare-and-set: of
    /// nodes re-encrypting the same key at once, one replaces it). Returns false when the key is gone or was
    /// already replaced.
    func replaceSigningKeyPrivateKey(kid: String, expected: [UInt8], replacement: [UInt8]) throws(StorageError) -> Bool

    // MARK: Device keys

    /// Stores a new active device key and revokes (at `key.createdAt`) every active or locked key of the same
    /// user and device id, atomically. Returns the ids of the keys it revoked.
    /// - Throws: `.conflict(.deviceKeyID)`.
    func insertDeviceKey(_ key: DeviceKey) throws(StorageError) -> [String]
    /// Replaces the status, failed-attempt count, lock and revocation times of the key `keyID` of `userID`.
    /// Returns false when no such key belongs to that user.
    func updateDeviceKeyState(keyID: String, userID: String, state: DeviceKeyState) throws(StorageError) -> Bool
    /// Sets `lastUsedAt` of the key `keyID` of `userID`. Returns false when no such key belongs to that user.
    func touchDeviceKey(keyID: String, userID: String, at: Date) throws(StorageError) -> Bool
    /// Unlocks every locked key of `userID` (status active, zero failures, no lock time): what a fresh passkey
    /// login does. Returns how many keys changed.
    func unlockDeviceKeys(userID: String) throws(StorageError) -> Int

    // MARK: Device challenges

    /// Stores a device challenge. - Throws: `.conflict(.deviceChallengeID)`.
    func insertDeviceChallenge(_ challenge: DeviceChallenge) throws(StorageError)
    /// Consumes the challenge `challengeID` of key `keyID` and user `userID` at `now`; first caller wins.
    func consumeDeviceChallenge(id challengeID: String, keyID: String, userID: String, now: Date)
        throws(StorageError) -> DeviceChallengeConsumption

    // MARK: Password fallback (SRP-6a)

    /// Stores `verifier` as its user's only verifier, replacing an earlier one.
    /// - Throws: `.conflict(.passwordIdentity)` when another user's verifier has the same realm and identity.
    func storePasswordVerifier(_ verifier: PasswordVerifier) throws(StorageError)
    /// Replaces the stored verifier bytes of `userID` with `replacement` if they are still `expected`
    /// (compare-and-set: of nodes sealing the same verifier at once one replaces it, and a verifier the user
    /// replaced meanwhile is left alone). Returns false when the verifier is gone or no longer `expected`.
    func replacePasswordVerifier(userID: String, expected: [UInt8], replacement: [UInt8]) throws(StorageError) -> Bool
    /// Stores a new SRP session. - Throws: `.conflict(.srpSessionID)`.
    func insertSRPSession(_ session: SRPSession) throws(StorageError)
    /// Deletes the SRP session `id` and returns it if it had not expired at `now` (an expired one is deleted too).
    /// Exactly one of any number of concurrent callers gets the record.
    func consumeSRPSession(id: String, now: Date) throws(StorageError) -> SRPSession?
    /// Adds one to the counter `key` at `now` and returns it. A counter last incremented before `cutoff` (when
    /// given) starts again from one: a sliding window. Atomic: concurrent increments are all counted.
    func incrementFallbackCounter(key: String, now: Date, restartingBefore cutoff: Date?) throws(StorageError)
        -> FallbackCounter
    /// Deletes the counters `keys`; returns how many existed.
    func resetFallbackCounters(keys: [String]) throws(StorageError) -> Int
    /// Reads the counters `keys` (those that exist) and holds them until this write ends: a concurrent write that
    /// locks any of the same keys waits until this one commits or rolls back, then reads what it left. A write that
    /// judges an attempt by these counters and counts it (`incrementFallbackCounter`) is thus never judged on a
    /// count another write is about to change, on any node. (Writes in memory and on SQLite are serial already.)
    func lockFallbackCounters(keys: [String]) throws(StorageError) -> [String: FallbackCounter]
    /// Takes one back from the counter `key`: an attempt counted before it was judged turned out a success. Its
    /// count drops by one and its time stays; a count that reaches zero deletes the counter; a missing counter
    /// (reset or purged meanwhile) is left missing.
    func decrementFallbackCounter(key: String) throws(StorageError)
    /// Deletes the counters whose key starts with `keyPrefix` and which were last incremented before `cutoff` (no
    /// rule reads them any more): at most `limit`, the oldest first. Returns how many; `limit` means more may be left.
    func purgeFallbackCounters(keyPrefix: String, lastBefore cutoff: Date, limit: Int) throws(StorageError) -> Int
    /// Stores the server secret `name` unless one exists, and returns the stored one: of concurrent first
    /// callers (nodes starting together), all get the same value.
    func insertServerSecret(name: String, value: [UInt8]) throws(StorageError) -> [UInt8]
    /// Replaces the server secret `name` with `replacement` if it is still `expected` (compare-and-set: of nodes
    /// sealing it at once, one replaces it). Returns false when it is gone or no longer `expected`.
    func replaceServerSecret(name: String, expected: [UInt8], replacement: [UInt8]) throws(StorageError) -> Bool

    // MARK: Device enrolment nonces

    /// Stores a device enrolment nonce. - Throws: `.conflict(.deviceEnrolmentNonce)`.
    func insertDeviceEnrolmentNonce(_ nonce: DeviceEnrolmentNonce) throws(StorageError)
    /// Deletes the nonce `nonce` issued to `userID` and returns it if it had not expired at `now` (an expired one is
    /// deleted too, and nil returned). A nonce of another user is not touched. Exactly one of any number of
    /// concurrent callers gets the record.
    func consumeDeviceEnrolmentNonce(_ nonce: String, userID: String, now: Date) throws(StorageError)
        -> DeviceEnrolmentNonce?

    // MARK: Security events and housekeeping

    /// Appends `event` and returns it with its assigned `seq`: unique; gap-free in commit order on SQLite and in
    /// memory; from a sequence on PostgreSQL (no gap-free or commit-order promise there: the audit log gives both).
    /// The single entry point of security events: committed, the event is queued for the audit log (SQLite: its
    /// commit-ordered seq is the queue; PostgreSQL: one queue row in the same statement), so an acknowledged event
    /// always reaches the log.
    func appendSecurityEvent(_ event: SecurityEvent) throws(StorageError) -> SecurityEvent
    /// Deletes auth sessions (passkey and SRP, counted together), device challenges, remembered DPoP proofs,
    /// device enrolment nonces and spent tokens past their expiry, and refresh tokens past their absolute
    /// expiry, at `now`: at most `limit` rows of each kind, those that expired first, so that one write stays
    /// short however large the backlog (a result of `limit` for a kind means more may be left).
    func purgeExpired(now: Date, limit: Int) throws(StorageError) -> PurgeResult
    /// Deletes security events past their retention (`audit.event_retention_days`): of the `limit` oldest events
    /// (by `seq`), those that occurred before `cutoff` and are already in the audit log (no longer waiting for the
    /// sequencer), which keeps them. Returns how many; fewer than `limit` means none older is left to delete now.
    /// Seqs are never given again. Where several nodes share the store, one purges at a time.
    func purgeSecurityEvents(before cutoff: Date, limit: Int) throws(StorageError) -> Int

    // MARK: Audit log (the sequencer's operations; see docs/audit.md)

    /// The audit tree's state, locked for this transaction: the one sequencer of the database holds it. Returns
    /// nil, doing nothing, when another transaction (another node's sequencer on PostgreSQL) holds it now.
    func lockAuditTree() throws(StorageError) -> AuditTreeState?
    /// Takes up to `limit` committed events from the audit queue, oldest seq first, removing them from it.
    func takePendingSecurityEvents(limit: Int) throws(StorageError) -> [SecurityEvent]
    /// Appends `leaves` (indexes `from.size`, `from.size + 1`, … in order) and stores `tree` as the new state,
    /// only if the stored state's size is still `from.size`.
    /// - Throws: `.internalFailure` when the leaves do not start at `from.size`, are not consecutive, `tree.size`
    ///   is not the new size, or the stored tree moved; nothing is written then.
    func appendAuditLeaves(_ leaves: [AuditLeaf], from: AuditTreeState, tree: AuditTreeState) throws(StorageError)
    /// Stores `nodes` (level 1 and more), the nodes completed by the leaves [`from`, `to`), and advances
    /// `auditNodeSize()` from `from` to `to`: by the sequencer with the leaves it appends, or by the backfill.
    /// - Throws: `.internalFailure` when the stored node size is not `from` or the log holds fewer than `to`
    ///   leaves; nothing is written then.
    func appendAuditNodes(_ nodes: [AuditNode], from: Int64, to: Int64) throws(StorageError)
    /// Stores a signed checkpoint unless one for the same tree size exists. Returns whether it was stored.
    func insertAuditCheckpoint(_ checkpoint: AuditCheckpointRecord) throws(StorageError) -> Bool

    // MARK: Passkey lifecycle (recovery codes, operators, account deletion)

    /// Sets the name of the credential `credentialID` of `userID`. Returns false when no such credential belongs
    /// to that user.
    func renameCredential(id credentialID: [UInt8], userID: String, name: String?) throws(StorageError) -> Bool
    /// Deletes the credential `credentialID` of `userID`. Returns false when no such credential belongs to that
    /// user (someone else's credential is not touched).
    func deleteCredential(id credentialID: [UInt8], userID: String) throws(StorageError) -> Bool
    /// Replaces every recovery code of `userID` with `codes` (which must all be `userID`'s): the old set is
    /// revoked in the same transaction. Returns how many old codes were revoked.
    /// - Throws: `.notFound` if the user does not exist; `.conflict(.foreignKey)` when a code is another user's.
    func replaceRecoveryCodes(userID: String, with codes: [RecoveryCode]) throws(StorageError) -> Int
    /// Deletes the recovery code of `userID` whose hash is `codeHash` and returns true, or returns false when there
    /// is none (already used, revoked, or wrong). Single use: of concurrent callers exactly one gets true.
    func consumeRecoveryCode(userID: String, codeHash: [UInt8]) throws(StorageError) -> Bool
    /// Revokes at `now` every unrevoked refresh token of `userID` (all its families: the user's sessions), and
    /// records `now` as the instant from which the user's access tokens are refused by passkeyd's own endpoints
    /// (`SessionStatus.sessionsRevokedAt`). Returns how many families had a live token.
    func revokeRefreshTokens(userID: String, now: Date) throws(StorageError) -> Int
    /// Revokes at `now` every unrevoked refresh token of every user (an operator's answer to a restore that brought
    /// rotated tokens back, or to a suspected theft at large), and records `now` for every user as
    /// `revokeRefreshTokens(userID:now:)` does. Returns how many families had a live token.
    func revokeAllRefreshTokens(now: Date) throws(StorageError) -> Int
    /// Deletes the user `id` and every row that is theirs outside the audit log: credentials, refresh tokens,
    /// device keys and challenges, enrolment nonces, the password verifier, SRP sessions, recovery codes and the
    /// auth sessions started for them (by user handle). Security events stay (they name the user by id only).
    /// Returns false when there is no such user.
    func deleteUser(id: String) throws(StorageError) -> Bool
    /// Spends the single-use token `jwtID` (its `jti`, RFC 7519 §4.1.7) and returns true, or returns false,
    /// writing nothing, when it is already spent. Of any number of concurrent callers with one `jwtID`, on any
    /// node, exactly one gets true; rolled back with the write's body (a failed write spends nothing). The record
    /// may be purged from `expiresAt` (when the token itself can no longer be accepted) on.
    func spendToken(jwtID: String, expiresAt: Date) throws(StorageError) -> Bool

    // MARK: Readiness

    /// Records that the store accepted a write at `at`: the cheap write behind `/readyz` (one row, overwritten).
    func recordHeartbeat(at: Date) throws(StorageError)
}
