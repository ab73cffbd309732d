/// The authentication options of `POST /passkey/challenge` (`authn_params_public_key`), as the software
/// authenticator needs them (WebAuthn L3 §5.5).
public struct PublicKeyCredentialRequestOptions: Sendable {
    /// `challenge`, decoded.
    public var challenge: [UInt8]
    /// `rpId`.
    public var rpID: String
    /// `userVerification`, when given.
    public var userVerification: String?
    /// `timeout` in milliseconds, when given.
    public var timeout: Int?
    /// `auth_session`, when the JSON parsed was the whole endpoint response.
    public var authSession: String?

    /// Creates options directly (for tests that build them without a server).
    public init(
        challenge: [UInt8], rpID: String, userVerification: String? = nil, timeout: Int? = nil,
        authSession: String? = nil
    ) {
        self.challenge = challenge
        self.rpID = rpID
        self.userVerification = userVerification
        self.timeout = timeout
        self.authSession = authSession
    }

    /// Parses the options object, or a whole `/passkey/challenge` response (`{authn_params_public_key, auth_session}`).
    /// - Throws: `SoftwareClientError.malformedOptions` when a member is missing or of the wrong type.
    public init(json: [UInt8]) throws(SoftwareClientError) {
        let (options, session) = try OptionsJSON.parse(json)
        challenge = try options.bytes("challenge")
        rpID = try options.string("rpId")
        userVerification = options.optionalString("userVerification")
        timeout = options.int("timeout")
        authSession = session
    }
}
