import Crypto

/// The registration options of `POST /passkey/register` (`authn_params_public_key`), as the software
/// authenticator needs them (WebAuthn L3 §5.4).
public struct PublicKeyCredentialCreationOptions: Sendable {
    /// `challenge`, decoded.
    public var challenge: [UInt8]
    /// `rp.id`.
    public var rpID: String
    /// `rp.name`.
    public var rpName: String
    /// `user.id`, decoded: the user handle.
    public var userID: [UInt8]
    /// `user.name`.
    public var userName: String
    /// `user.displayName`.
    public var userDisplayName: String
    /// `pubKeyCredParams[].alg`, in the server's order of preference.
    public var algorithms: [Int]
    /// `authenticatorSelection.userVerification`, when given.
    public var userVerification: String?
    /// `authenticatorSelection.residentKey`, when given.
    public var residentKey: String?
    /// `timeout` in milliseconds, when given.
    public var timeout: Int?
    /// `auth_session`, when the JSON parsed was the whole endpoint response.
    public var authSession: String?
    /// `excludeCredentials` ids (WebAuthn L3 §5.4): credentials the authenticator must not register again.
    public var excludeCredentialIDs: [[UInt8]] = []
    /// `hints` (WebAuthn L3 §5.4), in order.
    public var hints: [String] = []

    /// Parses the options object, or a whole `/passkey/register` response (`{authn_params_public_key, auth_session}`).
    /// - Throws: `SoftwareClientError.malformedOptions` when a member is missing or of the wrong type.
    public init(json: [UInt8]) throws(SoftwareClientError) {
        let (options, session) = try OptionsJSON.parse(json)
        let rp = try options.object("rp")
        let user = try options.object("user")
        challenge = try options.bytes("challenge")
        rpID = try options.string("id", in: rp)
        rpName = (rp["name"] as? String) ?? rpID
        userID = try options.bytes("id", in: user)
        userName = try options.string("name", in: user)
        userDisplayName = (user["displayName"] as? String) ?? userName
        guard let parameters = options.object["pubKeyCredParams"] as? [[String: Any]] else {
            throw SoftwareClientError(.malformedOptions, "pubKeyCredParams is missing or not an array of objects")
        }
        algorithms = parameters.compactMap { OptionsJSON.integer($0["alg"]) }
        let selection = options.object["authenticatorSelection"] as? [String: Any]
        userVerification = selection?["userVerification"] as? String
        residentKey = selection?["residentKey"] as? String
        timeout = options.int("timeout")
        authSession = session
        if let excluded = options.object["excludeCredentials"] as? [[String: Any]] {
            excludeCredentialIDs = excluded.compactMap { ($0["id"] as? String).flatMap { Base64URL.decode($0) } }
        }
        hints = (options.object["hints"] as? [String]) ?? []
    }
}
