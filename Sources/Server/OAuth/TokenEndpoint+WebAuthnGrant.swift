import Foundation
import HTTP
import Storage
import WebAuthn

extension TokenEndpoint {
    /// `grant_type=urn:okta:params:oauth:grant-type:webauthn`: completes the ceremony an `auth_session` started.
    ///
    /// Store traffic: one write consumes the session (and, for a login, reads the credential and its user in the
    /// same transaction) before anything is verified, so the session is spent whatever the outcome; after
    /// verification one more write stores the result and the refresh token.
    func webAuthnGrant(_ parameters: RequestParameters, client: ClientConfiguration) async throws -> Response {
        let presentedSession = try parameters.string("auth_session", maxLength: 128)
        let authnResponse = try parameters.object("authn_response")
        let scope = try requestedScope(parameters)
        let audience = try parameters.optionalString("audience", maxLength: 512)
        let realmName = try parameters.optionalString("realm", maxLength: 128)
        guard let handle = AuthSessionHandle(presented: presentedSession) else {
            throw OAuthError.invalidSession("session_malformed")
        }
        // Parsed before the session is consumed, only to know which credential to read in the same write;
        // a parse failure is reported after consumption.
        let credential = Result { () throws(WebAuthnError) in try PublicKeyCredentialJSON(authnResponse) }
        let credentialID = try? credential.get().rawID
        let now = context.clock.now()
        let consumed = try await context.store.write { writer -> ConsumedSession? in
            guard let session = try writer.consumeAuthSession(id: handle.sessionID, now: now) else { return nil }
            guard session.kind == .login, let credentialID, let stored = try writer.credential(id: credentialID) else {
                return ConsumedSession(session: session, credential: nil, user: nil)
            }
            return ConsumedSession(session: session, credential: stored, user: try writer.user(id: stored.userID))
        }
        guard let consumed else {
            throw OAuthError.invalidSession("session_unknown", reason: "unknown, expired or already used")
        }
        let session = consumed.session
        guard session.clientID == client.clientID else {
            throw OAuthError.invalidSession("session_other_client", reason: "session of \(session.clientID)")
        }
        if let realmName, realmName != session.realm {
            throw OAuthError.invalidSession("session_other_realm", reason: "session of realm \(session.realm)")
        }
        let response = try credential.get()
        let request = GrantRequest(client: client, scope: scope, audience: audience, now: now)
        switch session.kind {
        case .signup:
            return try await signup(session: session, response: response, request: request)
        case .login:
            return try await login(consumed, response: response, request: request)
        }
    }

    /// The grant's parameters once the session is settled.
    struct GrantRequest: Sendable {
        let client: ClientConfiguration
        let scope: Scope
        let audience: String?
        let now: Date
    }

    /// `scope` (RFC 6749 §3.3), or the default scope.
    func requestedScope(_ parameters: RequestParameters) throws -> Scope {
        guard let text = try parameters.optionalString("scope", maxLength: 1024) else { return .default }
        guard let scope = Scope(parsing: text) else { throw OAuthError.invalidParameter("scope") }
        return scope
    }

    /// WebAuthn L3 §7.1 step 15 / §7.2 step 17: UV is required when the policy says `required`.
    var userVerificationRequired: Bool { context.configuration.passkeys.userVerification == "required" }

    /// RFC 8176 `amr`: a hardware-bound key, plus `user` when the authenticator verified the user.
    static func authenticationMethods(userVerified: Bool) -> [String] {
        userVerified ? ["hwk", "user"] : ["hwk"]
    }

    /// A new refresh token for a fresh login, when the client and scope call for one.
    func refreshTokenForLogin(user: User, request: GrantRequest) throws -> (
        value: String, record: Storage.RefreshToken
    )? {
        guard TokenService.issuesRefreshToken(client: request.client, scope: request.scope) else { return nil }
        return try context.tokens.newRefreshToken(
            familyID: try TokenService.randomIdentifier(), clientID: request.client.clientID, userID: user.id,
            scope: request.scope.text, authTime: request.now, now: request.now)
    }
}
