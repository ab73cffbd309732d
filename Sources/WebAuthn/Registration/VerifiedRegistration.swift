import Crypto

/// A registration that passed every check of WebAuthn L3 §7.1, with the attestation trust outcome the relying
/// party decides on (`CeremonyPolicy`). Only `RegistrationVerifier` creates one.
public struct VerifiedRegistration: Sendable {
    /// The credential ID (store it; it identifies the credential in later assertions).
    public let credentialID: [UInt8]
    /// The credential public key: `rawBytes` is what to store, `algorithm` what it verifies with.
    public let credentialPublicKey: COSEKey
    /// The signature counter at registration.
    public let signCount: UInt32
    /// The authenticator's AAGUID (16 bytes).
    public let aaguid: [UInt8]
    /// The attestation statement format identifier (the attestation object's `fmt`: "compound" for several).
    public let format: String
    /// Every verified statement with its trust outcome: one, or one per entry of a `compound` statement (§8.9).
    public let statements: [JudgedAttestationStatement]
    /// The attestation type the statement proved (of a compound one, the strongest entry's:
    /// `JudgedAttestationStatement.strongest(of:)`).
    public let attestationType: AttestationType
    /// The attestation trust path, leaf first (empty for none/self), of the same statement.
    public let trustPath: [Certificate]
    /// §7.1 step 24: whether the trust path chained to one of the configured trust anchors, and if not why
    /// (`CeremonyPolicy` decides whether that is acceptable), of the same statement.
    public let attestationTrust: AttestationTrustResult
    /// UV flag.
    public let userVerified: Bool
    /// BE flag: the credential may be synced.
    public let backupEligible: Bool
    /// BS flag: the credential is backed up.
    public let backedUp: Bool
    /// Transports the client reported.
    public let transports: [String]
    /// The authenticator data, for anything else the RP wants (extensions).
    public let authenticatorData: AuthenticatorData

    init(
        attested: AttestedCredentialData,
        authenticatorData: AuthenticatorData,
        format: String,
        statements: [JudgedAttestationStatement],
        strongest: JudgedAttestationStatement,
        transports: [String]
    ) {
        self.credentialID = attested.credentialID
        self.credentialPublicKey = attested.credentialPublicKey
        self.signCount = authenticatorData.signCount
        self.aaguid = attested.aaguid
        self.format = format
        self.statements = statements
        self.attestationType = strongest.type
        self.trustPath = strongest.trustPath
        self.attestationTrust = strongest.trust
        self.userVerified = authenticatorData.flags.userVerified
        self.backupEligible = authenticatorData.flags.backupEligible
        self.backedUp = authenticatorData.flags.backedUp
        self.transports = transports
        self.authenticatorData = authenticatorData
    }

    /// The AAGUID in UUID text form (RFC 9562 §4: lower-case 8-4-4-4-12 hex).
    public var aaguidString: String { UUIDText.format(aaguid) }
}
