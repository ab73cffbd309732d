/// What the relying party expects of an authentication ceremony (WebAuthn L3 §7.2 inputs: the options
/// it sent and the stored credential record).
public struct AuthenticationExpectations: Sendable {
    /// The challenge sent in PublicKeyCredentialRequestOptions.
    public var challenge: [UInt8]
    /// The RP ID, with its hash (built once per configuration, not per request).
    public var rpID: RelyingPartyID
    /// The origins the ceremony may come from.
    public var originPolicy: OriginPolicy
    /// Whether the RP required user verification.
    public var userVerificationRequired: Bool
    /// The stored credential ID; when set, `rawId` must equal it.
    public var credentialID: [UInt8]?
    /// The stored credential public key.
    public var credentialPublicKey: COSEKey
    /// The stored signature counter.
    public var storedSignCount: UInt32
    /// The stored backup flags, compared with the assertion's in `VerifiedAssertion.backupState` (nil: not compared).
    public var storedBackupState: BackupStateResult.Stored?
    /// The user handle of the credential's owner; when set, a returned userHandle must equal it.
    public var userHandle: [UInt8]?

    /// Creates expectations.
    public init(
        challenge: [UInt8],
        rpID: RelyingPartyID,
        originPolicy: OriginPolicy,
        userVerificationRequired: Bool = false,
        credentialID: [UInt8]? = nil,
        credentialPublicKey: COSEKey,
        storedSignCount: UInt32,
        storedBackupState: BackupStateResult.Stored? = nil,
        userHandle: [UInt8]? = nil
    ) {
        self.challenge = challenge
        self.rpID = rpID
        self.originPolicy = originPolicy
        self.userVerificationRequired = userVerificationRequired
        self.credentialID = credentialID
        self.credentialPublicKey = credentialPublicKey
        self.storedSignCount = storedSignCount
        self.storedBackupState = storedBackupState
        self.userHandle = userHandle
    }
}
