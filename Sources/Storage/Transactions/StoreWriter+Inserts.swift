import Foundation

/// The named inserts, each `insert(_:)` of its kind: a row whose key exists is a conflict naming that key, or, for
/// the single-use records, the answer "already there".
extension StoreWriter {
    /// Inserts another credential for an existing user.
    /// - Throws: `.notFound` if the user does not exist, `.conflict(.credentialID)`; nothing is written then.
    public func insertCredential(_ credential: Credential) throws(StorageError) {
        guard try user(id: credential.userID) != nil else {
            throw StorageError(.notFound, "no user \(credential.userID) for the credential")
        }
        guard try insert(.credential(credential)) else { throw .conflict(.credentialID) }
    }

    /// Stores a new auth session. - Throws: `.conflict(.authSessionID)`.
    public func insertAuthSession(_ session: AuthSession) throws(StorageError) {
        guard try insert(.authSession(session)) else { throw .conflict(.authSessionID) }
    }

    /// Stores a refresh token (first of a family, after a login). - Throws: `.conflict(.refreshTokenHash)`.
    public func insertRefreshToken(_ token: RefreshToken) throws(StorageError) {
        guard try insert(.refreshToken(token)) else { throw .conflict(.refreshTokenHash) }
    }

    /// Stores a signing key. - Throws: `.conflict(.signingKeyID)`.
    public func insertSigningKey(_ key: SigningKey) throws(StorageError) {
        guard try insert(.signingKey(key)) else { throw .conflict(.signingKeyID) }
    }

    /// Stores a device challenge. - Throws: `.conflict(.deviceChallengeID)`.
    public func insertDeviceChallenge(_ challenge: DeviceChallenge) throws(StorageError) {
        guard try insert(.deviceChallenge(challenge)) else { throw .conflict(.deviceChallengeID) }
    }

    /// Stores a new SRP session. - Throws: `.conflict(.srpSessionID)`.
    public func insertSRPSession(_ session: SRPSession) throws(StorageError) {
        guard try insert(.srpSession(session)) else { throw .conflict(.srpSessionID) }
    }

    /// Stores a device enrolment nonce. - Throws: `.conflict(.deviceEnrolmentNonce)`.
    public func insertDeviceEnrolmentNonce(_ nonce: DeviceEnrolmentNonce) throws(StorageError) {
        guard try insert(.deviceEnrolmentNonce(nonce)) else { throw .conflict(.deviceEnrolmentNonce) }
    }

    /// Remembers an accepted DPoP proof and returns true, or returns false, writing nothing, when a proof with the
    /// same key thumbprint and `jti` is already remembered (RFC 9449 §11.1: a replay). Single use: of any number
    /// of concurrent callers with one (thumbprint, jti), exactly one gets true.
    public func recordDPoPProof(_ use: DPoPProofUse) throws(StorageError) -> Bool {
        try insert(.dpopProof(use))
    }

    /// Spends the single-use token `jwtID` (its `jti`, RFC 7519 §4.1.7) and returns true, or returns false,
    /// writing nothing, when it is already spent. Of any number of concurrent callers with one `jwtID`, on any
    /// node, exactly one gets true; rolled back with the write's body (a failed write spends nothing). The record
    /// may be purged from `expiresAt` (when the token itself can no longer be accepted) on.
    public func spendToken(jwtID: String, expiresAt: Date) throws(StorageError) -> Bool {
        try insert(.spentToken(jwtID: jwtID, expiresAt: expiresAt))
    }

    /// Spends the sealed auth session `id` (`/passkey/challenge`, `/passkey/register`: nothing is stored when they
    /// are issued) and returns true, or returns false, writing nothing, when it is already spent. Of any number of
    /// concurrent callers with one `id`, on any node, exactly one gets true; rolled back with the write's body (a
    /// failed write spends nothing). The record may be purged from `expiresAt` (the session's own expiry, past
    /// which it is refused anyway) on.
    public func spendAuthSession(id: String, expiresAt: Date) throws(StorageError) -> Bool {
        try insert(.spentAuthSession(id: id, expiresAt: expiresAt))
    }

    /// Stores a signed checkpoint unless one for the same tree size exists. Returns whether it was stored.
    public func insertAuditCheckpoint(_ checkpoint: AuditCheckpointRecord) throws(StorageError) -> Bool {
        try insert(.auditCheckpoint(checkpoint))
    }
}
