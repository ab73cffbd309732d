import Configuration
import Foundation
import Service
import Storage

extension TokenEndpoint {
    /// What a login asks for (`audience` and `scope`), as `ResourceAuthorization` grants it: decided before the
    /// session is spent, so that an unknown or ungranted API costs the user nothing. `passwordLogin` for the SRP-6a
    /// grant, whose audiences are the client's `password_login_audiences`.
    /// - Throws: 400 `invalid_request` for a malformed parameter, 403 `access_denied` for an audience the client may
    ///   not have.
    package func requestedAccess(
        _ parameters: RequestParameters, client: ClientConfiguration, passwordLogin: Bool = false
    )
        throws -> AuthorizedAccess
    {
        let scope = try requestedScope(parameters)
        let audience = try requestedAudience(parameters)
        return try context.tokens.authorization.authorize(
            client: client, audience: audience, scope: scope, passwordLogin: passwordLogin)
    }

    /// `scope` (RFC 6749 §3.3), or the default scope.
    package func requestedScope(_ parameters: RequestParameters) throws -> Scope {
        try presentedScope(parameters) ?? .default
    }

    /// `scope` (RFC 6749 §3.3) as sent; `nil` when absent.
    package func presentedScope(_ parameters: RequestParameters) throws -> Scope? {
        guard let text = try parameters.optionalString("scope", maxLength: 1024) else { return nil }
        guard let scope = Scope(parsing: text) else { throw OAuthError.invalidParameter("scope") }
        return scope
    }

    /// Longest `audience` accepted, in bytes.
    package static let maximumAudienceLength = 512

    /// `audience` (Auth0's API identifier), `nil` when absent: 1–512 visible ASCII characters (no space, no
    /// control character), and a URI when it has a colon; checked before anything is spent (the auth session, the
    /// refresh token). Whether it names an API the client may have is `ResourceAuthorization`'s decision.
    package func requestedAudience(_ parameters: RequestParameters) throws -> String? {
        guard let text = try parameters.optionalString("audience", maxLength: Self.maximumAudienceLength) else {
            return nil
        }
        // The rule API identifiers follow in the configuration (`ServerConfiguration.isAudience`).
        guard ServerConfiguration.isAudience(text) else {
            throw OAuthError.invalidParameter("audience", reason: "not visible ASCII, or has a colon but is no URI")
        }
        return text
    }

    // MARK: the SRP-6a grant's call path into the core (until that grant is a flow of its own)

    /// `GrantRequest(sessionClientID:sessionRealm:realmName:client:access:now:dpop:)`: the session must be this
    /// client's, and of the realm the request names (if any).
    package func checkedRequest(
        sessionClientID: String, sessionRealm: String, realmName: String?, client: ClientConfiguration,
        access: AuthorizedAccess, now: Date, dpop: String?
    ) throws -> GrantRequest {
        try GrantRequest(
            sessionClientID: sessionClientID, sessionRealm: sessionRealm, realmName: realmName, client: client,
            access: access, now: now, dpop: dpop)
    }

    /// `GrantRequest.refreshToken(for:authenticationMethods:tokens:)`: the first refresh token of a fresh login, when
    /// the client and scope call for one.
    package func refreshTokenForLogin(user: User, request: GrantRequest, authenticationMethods: [String]) throws -> (
        value: String, record: Storage.RefreshToken
    )? {
        try request.refreshToken(for: user, authenticationMethods: authenticationMethods, tokens: context.tokens)
    }
}
