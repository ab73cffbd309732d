import Foundation

/// Who a valid Bearer access token speaks for (RFC 9068 §2.2 claims), as `TokenService.authenticate` returns it.
public struct AuthenticatedSubject: Sendable, Equatable {
    /// `sub`: the user id.
    public let sub: String
    /// `client_id`: the app the token was issued to.
    public let clientID: String
    /// `scope`, split on spaces.
    public let scope: [String]
    /// `auth_time`: when the user last authenticated (a passkey ceremony or the password fallback), if the token
    /// says. A token minted by the refresh grant keeps the original instant (OIDC Core §2, RFC 9068 §2.2.1).
    public let authTime: Date?
    /// `amr` (RFC 8176): how the user authenticated, e.g. `["hwk", "user"]` after a user-verified passkey.
    public let authenticationMethods: [String]
    /// `iat`: when the token was minted.
    public let issuedAt: Date
    /// `aud`: the audiences the token is for.
    public let audience: [String]
    /// `jti` of the token.
    public let tokenID: String
    /// `cnf.jkt` of a DPoP-bound token, whose proof by that key came with the request (RFC 9449 §7); `nil` for a
    /// Bearer token.
    public let dpopThumbprint: String?
    /// `sid`: the login session (refresh-token family) the token belongs to, if it says.
    public let sessionID: String?

    /// Creates a subject. `issuedAt` has no default: `FreshLoginRequirement` judges a token by it (an epoch
    /// default would pass its "minted by the login" check).
    public init(
        sub: String, clientID: String, scope: [String], authTime: Date?, tokenID: String,
        authenticationMethods: [String], issuedAt: Date, audience: [String], dpopThumbprint: String? = nil,
        sessionID: String? = nil
    ) {
        self.sub = sub
        self.clientID = clientID
        self.scope = scope
        self.authTime = authTime
        self.tokenID = tokenID
        self.authenticationMethods = authenticationMethods
        self.issuedAt = issuedAt
        self.audience = audience
        self.dpopThumbprint = dpopThumbprint
        self.sessionID = sessionID
    }
}
