import Foundation

/// An authorization code (`authorization_codes`, RFC 6749 §4.1.2): issued by the hosted login, redeemed once at the
/// token endpoint. Only the SHA-256 of the code is stored. Redemption is a compare-and-set on `redeemedAt` (nil until
/// used) in the write that stores the tokens' refresh token, so exactly one presentation succeeds on any node.
public struct AuthorizationCode: Sendable, Hashable {
    /// SHA-256 of the code (its key).
    public var codeHash: [UInt8]
    /// The client it was issued to: only that client redeems it (RFC 6749 §4.1.3).
    public var clientID: String
    /// The `redirect_uri` of the authorization request, exactly as sent (RFC 6749 §4.1.3).
    public var redirectURI: String
    /// The PKCE `code_challenge` (S256, base64url; RFC 7636 §4.2).
    public var codeChallenge: String
    /// The user who logged in.
    public var userID: String
    /// SHA-256 of the login session's cookie value (the session the code came from).
    public var sessionHash: [UInt8]
    /// The realm of the login.
    public var realm: String
    /// The scope granted (space-separated).
    public var scope: String
    /// The API asked for (`audience`), if any.
    public var audience: String?
    /// The organization of the login, if any.
    public var organizationID: String?
    /// The authorization request's `nonce` (OIDC Core §3.1.2.1), for the ID token.
    public var nonce: String?
    /// When the user authenticated (`auth_time`).
    public var authTime: Date
    /// RFC 8176 `amr` of that authentication.
    public var authenticationMethods: [String]
    /// When it was issued.
    public var createdAt: Date
    /// When it stops being redeemable (60 s after issue).
    public var expiresAt: Date
    /// When it was redeemed; nil until then.
    public var redeemedAt: Date?
    /// The session (refresh-family) id the redemption issued tokens under, so that a second presentation revokes it
    /// (RFC 6749 §4.1.2).
    public var refreshFamily: String?
    /// The authorization request's `dpop_jkt` (RFC 9449 §10): the JWK SHA-256 thumbprint (RFC 7638) of the DPoP key
    /// whose proof alone may redeem the code; nil when the request named none.
    public var dpopThumbprint: String?

    /// Creates an authorization-code record.
    public init(
        codeHash: [UInt8], clientID: String, redirectURI: String, codeChallenge: String, userID: String,
        sessionHash: [UInt8], realm: String, scope: String, audience: String? = nil, organizationID: String? = nil,
        nonce: String? = nil, authTime: Date, authenticationMethods: [String], createdAt: Date, expiresAt: Date,
        redeemedAt: Date? = nil, refreshFamily: String? = nil, dpopThumbprint: String? = nil
    ) {
        self.codeHash = codeHash
        self.clientID = clientID
        self.redirectURI = redirectURI
        self.codeChallenge = codeChallenge
        self.userID = userID
        self.sessionHash = sessionHash
        self.realm = realm
        self.scope = scope
        self.audience = audience
        self.organizationID = organizationID
        self.nonce = nonce
        self.authTime = authTime
        self.authenticationMethods = authenticationMethods
        self.createdAt = createdAt
        self.expiresAt = expiresAt
        self.redeemedAt = redeemedAt
        self.refreshFamily = refreshFamily
        self.dpopThumbprint = dpopThumbprint
    }
}
