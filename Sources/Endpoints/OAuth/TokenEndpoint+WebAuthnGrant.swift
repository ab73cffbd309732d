import Foundation
import HTTP
import JSON
import Service
import Storage
import WebAuthn

extension TokenEndpoint {
    /// `grant_type=urn:okta:params:oauth:grant-type:webauthn`: completes the ceremony an `auth_session` started.
    ///
    /// The session is single-use and spent by the first request that presents it, whatever the outcome.
    /// Store traffic for a login: one read finds the session, the credential and its user (`loginLookup`, one
    /// statement on PostgreSQL); the assertion is
    /// verified; then ONE write consumes the session, compare-and-sets the counter and stores the refresh token —
    /// of concurrent presentations only the one whose write consumes the session succeeds. Any refusal spends
    /// the session in a write of its own before it is answered. A sign-up spends the session first.
    package func webAuthnGrant(_ parameters: RequestParameters, client: ClientConfiguration, dpop: String?) async throws
        -> Response
    {
        let presentedSession = try parameters.string("auth_session", maxLength: 128)
        let authnResponse = try parameters.object("authn_response")
        let access = try requestedAccess(parameters, client: client)
        let realmName = try parameters.optionalString("realm", maxLength: 128)
        guard let handle = AuthSessionHandle(presented: presentedSession) else {
            throw OAuthError.invalidSession("session_malformed")
        }
        // Parsed before the session is looked up, only to know which credential to read with it; a parse
        // failure is reported after the session is spent.
        let credential = Result { () throws(WebAuthnError) in try PublicKeyCredentialJSON(json: authnResponse) }
        let credentialID = try? credential.get().rawID
        let now = context.clock.now()
        let sessionID = handle.sessionID
        let lookup = try await context.store.read { reader in
            try reader.loginLookup(sessionID: sessionID, credentialID: credentialID)
        }
        guard let found = lookup, now < found.session.expiresAt, found.session.kind == .login else {
            // Unknown, expired or already used — or a sign-up, whose session is spent before anything else.
            let consumed = try await spendSession(sessionID, now: now)
            guard let consumed else {
                let error = OAuthError.invalidSession("session_unknown", reason: "unknown, expired or already used")
                await recordRefusal(
                    AuthenticationAuditEvent.login, error, now: now, clientID: client.clientID,
                    credentialID: credentialID)
                throw error
            }
            do {
                let request = try checkedRequest(
                    consumed, realmName: realmName, client: client, access: access, now: now,
                    dpop: dpop)
                return try await signup(
                    session: consumed, credential: credential, sent: authnResponse, request: request)
            } catch {
                await recordRefusal(
                    AuthenticationAuditEvent.signup, error, now: now, clientID: client.clientID,
                    credentialID: credentialID)
                throw error
            }
        }
        do {
            let request = try checkedRequest(
                found.session, realmName: realmName, client: client, access: access, now: now,
                dpop: dpop)
            return try await login(found, credential: credential, sent: authnResponse, request: request)
        } catch {
            // A refused login still spends the session (single use, whatever the outcome), and the refusal enters
            // the audit log in the same write. If the refusal was the store failing, this may fail too; the
            // session then expires on its own.
            let event = AuthenticationAuditEvent.refusal(
                AuthenticationAuditEvent.login, error, now: now, clientID: client.clientID, userID: found.user?.id,
                credentialID: credentialID)
            _ = try? await spendSession(sessionID, now: now, recording: event)
            throw error
        }
    }

    /// Consumes the session in a write of its own, appending `event` in it if given; `nil` when the session was
    /// unknown, expired or already used.
    private func spendSession(_ sessionID: String, now: Date, recording event: SecurityEvent? = nil) async throws
        -> AuthSession?
    {
        try await context.store.write { writer in
            if let event { _ = try writer.appendSecurityEvent(event) }
            return try writer.consumeAuthSession(id: sessionID, now: now)
        }
    }

    /// Records a refused ceremony in a write of its own (best effort: the refusal is answered anyway).
    private func recordRefusal(
        _ kind: String, _ error: any Error, now: Date, clientID: String, credentialID: [UInt8]?
    ) async {
        let event = AuthenticationAuditEvent.refusal(
            kind, error, now: now, clientID: clientID, credentialID: credentialID)
        _ = try? await context.store.write { writer in _ = try writer.appendSecurityEvent(event) }
    }

    /// The session must be this client's, and of the realm the request names (if any).
    package func checkedRequest(
        _ session: AuthSession, realmName: String?, client: ClientConfiguration, access: AuthorizedAccess, now: Date,
        dpop: String?
    ) throws -> GrantRequest {
        try checkedRequest(
            sessionClientID: session.clientID, sessionRealm: session.realm, realmName: realmName, client: client,
            access: access, now: now, dpop: dpop)
    }

    /// The rule above on a session's client and realm (`SessionOwnership`).
    package func checkedRequest(
        sessionClientID: String, sessionRealm: String, realmName: String?, client: ClientConfiguration,
        access: AuthorizedAccess, now: Date, dpop: String?
    ) throws -> GrantRequest {
        try SessionOwnership.check(
            sessionClientID: sessionClientID, sessionRealm: sessionRealm, client: client, realmName: realmName)
        // UUIDv7 family ids append to the family index instead of dirtying a random leaf (TimeOrderedIdentifier).
        return GrantRequest(
            client: client, access: access, now: now, dpopThumbprint: dpop,
            sessionID: try TimeOrderedIdentifier.make(now: now))
    }

    /// The grant's parameters once the session is settled.
    package struct GrantRequest: Sendable {
        package let client: ClientConfiguration
        /// The API and scope granted (`ResourceAuthorization`).
        package let access: AuthorizedAccess
        package let now: Date
        /// The thumbprint of the request's DPoP key (RFC 9449 §5), to which the tokens are bound.
        package let dpopThumbprint: String?
        /// The login's session: the access token's `sid` and, when a refresh token is issued, its family's id.
        package let sessionID: String
    }

    /// What a login asks for (`audience` and `scope`), as `ResourceAuthorization` grants it: decided before the
    /// session is spent, so that an unknown or ungranted API costs the user nothing. `passwordLogin` for the SRP-6a
    /// grant, whose audiences are the client's `password_login_audiences`.
    /// - Throws: 400 `invalid_request` for a malformed parameter or an `organization`, 403 `access_denied` for an
    ///   audience the client may not have.
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

    /// WebAuthn L3 §7.1 step 15 / §7.2 step 17: UV is required when the client's policy is `required`.
    package func userVerificationRequired(_ client: ClientConfiguration) -> Bool {
        context.configuration.userVerification(for: client).requiresVerifiedUser
    }

    /// RFC 8176 `amr`: a hardware-bound key, plus `user` when the authenticator verified the user.
    package static func authenticationMethods(userVerified: Bool) -> [String] {
        userVerified ? ["hwk", "user"] : ["hwk"]
    }

    /// The token response after a verified passkey ceremony (sign-up or login): counted, then minted with the
    /// ceremony's instant as `auth_time` and its `amr`.
    package func ceremonyTokens(
        event: String, user: User, userVerified: Bool, refreshToken: String?, request: GrantRequest
    ) async throws -> Response {
        context.metrics.count(event: event)
        return .token(
            try await context.tokens.tokenResponse(
                for: TokenService.Grant(
                    user: user, clientID: request.client.clientID, access: request.access, authTime: request.now,
                    authenticationMethods: Self.authenticationMethods(userVerified: userVerified),
                    dpopThumbprint: request.dpopThumbprint, sessionID: request.sessionID, isLogin: true),
                refreshToken: refreshToken, now: request.now))
    }

    /// A new refresh token for a fresh login whose `amr` is `authenticationMethods`, when the client and scope call
    /// for one: the first of the family `request.sessionID`.
    package func refreshTokenForLogin(user: User, request: GrantRequest, authenticationMethods: [String]) throws -> (
        value: String, record: Storage.RefreshToken
    )? {
        try context.tokens.loginRefreshToken(
            userID: user.id, client: request.client, access: request.access, familyID: request.sessionID,
            now: request.now, authenticationMethods: authenticationMethods, dpopThumbprint: request.dpopThumbprint)
    }
}
