/// Deliberate defects the software authenticator can put into one ceremony, one knob per negative case a relying
/// party must refuse. The default changes nothing. A replay needs no knob: send the same `PublicKeyCredential`
/// twice; a cross-session assertion is one made for another session's options.
public struct CeremonyTampering: Sendable {
    /// Replaces `clientDataJSON.type` ("webauthn.create" / "webauthn.get"), e.g. to send the other ceremony's type.
    public var clientDataType: String?
    /// Replaces the challenge echoed in `clientDataJSON`.
    public var challenge: [UInt8]?
    /// Writes this text as `clientDataJSON`'s challenge, e.g. another spelling of the right challenge (padded,
    /// standard alphabet); the authenticator signs over it as written.
    public var challengeText: String?
    /// Computes `rpIdHash` over this RP ID instead of the options' one.
    public var rpID: String?
    /// Replaces the flags (AT is still added to registrations), e.g. without UP.
    public var flags: AuthenticatorFlags?
    /// Reports this counter instead of the next one, and leaves the stored counter alone (counter regression).
    public var signCount: UInt32?
    /// Returns this `userHandle` instead of the credential's (another user's handle).
    public var userHandle: [UInt8]?
    /// Leaves `userHandle` out of the assertion.
    public var omitsUserHandle: Bool
    /// Flips one bit of the signature after signing.
    public var corruptsSignature: Bool
    /// Sends an `id` that is not base64url(`rawId`).
    public var mismatchesID: Bool
    /// Reports this credential id as `rawId` (and `id`, consistently) instead of the one in the authenticator
    /// data: a client that names another credential than the authenticator attested.
    public var rawID: [UInt8]?
    /// Replaces the credential `type` ("public-key").
    public var credentialType: String?
    /// Registration only: attests this credential id instead of a fresh random one (an authenticator that
    /// ignores `excludeCredentials` and presents an id already registered).
    public var reusedCredentialID: [UInt8]?

    /// Creates a tampering description; every default leaves the ceremony valid.
    public init(
        clientDataType: String? = nil, challenge: [UInt8]? = nil, rpID: String? = nil, flags: AuthenticatorFlags? = nil,
        signCount: UInt32? = nil, userHandle: [UInt8]? = nil, omitsUserHandle: Bool = false,
        corruptsSignature: Bool = false, mismatchesID: Bool = false, rawID: [UInt8]? = nil,
        credentialType: String? = nil, challengeText: String? = nil, reusedCredentialID: [UInt8]? = nil
    ) {
        self.clientDataType = clientDataType
        self.challenge = challenge
        self.rpID = rpID
        self.flags = flags
        self.signCount = signCount
        self.userHandle = userHandle
        self.omitsUserHandle = omitsUserHandle
        self.corruptsSignature = corruptsSignature
        self.mismatchesID = mismatchesID
        self.rawID = rawID
        self.credentialType = credentialType
        self.challengeText = challengeText
        self.reusedCredentialID = reusedCredentialID
    }

    /// No defect.
    public static let none = CeremonyTampering()
}
