import Configuration
import Foundation
import JSON
import Storage
import WebAuthn

/// `grant_type=urn:okta:params:oauth:grant-type:webauthn` (Auth0's native passkey flow): completes the ceremony an
/// `auth_session` started, a sign-up (`+Signup`) or a login (`+Login`), and mints the tokens.
///
/// The session is single-use and spent by the first request that presents it, whatever the outcome — except a 503
/// (nothing was written, docs/api.md), which leaves it for the client's retry.
/// Store traffic for a login: one read finds the session, the credential and its user (`loginLookup`, one
/// statement on PostgreSQL); the assertion is verified; then ONE write consumes the session, compare-and-sets the
/// counter and stores the refresh token — of concurrent presentations only the one whose write consumes the session
/// succeeds. A sign-up likewise: the same read, the attestation verified, then one write that consumes the session
/// and stores the user, the credential and the refresh token. Any other refusal spends the session in a write of its
/// own before it is answered.
package struct WebAuthnGrant: Sendable {
    package let context: ServerContext
    /// Judges (and in record mode records) the ceremony.
    package let verifier: CeremonyVerifier

    /// What the token request presents, parsed.
    package struct Parameters: Sendable {
        /// `auth_session` as sent.
        package var authSession: String
        /// `authn_response`: the PublicKeyCredential in WebAuthn JSON form, unchanged (it is what a recording holds).
        package var authnResponse: JSONValue
        /// `audience` and `scope`, as `ResourceAuthorization` granted them to the client.
        package var access: AuthorizedAccess
        /// `realm`, when named: the session must be of that realm.
        package var realm: String?
        package var client: ClientConfiguration
        /// The thumbprint of the request's verified DPoP proof (RFC 9449 §5), if any.
        package var dpopThumbprint: String?

        package init(
            authSession: String, authnResponse: JSONValue, access: AuthorizedAccess, realm: String?,
            client: ClientConfiguration, dpopThumbprint: String?
        ) {
            self.authSession = authSession
            self.authnResponse = authnResponse
            self.access = access
            self.realm = realm
            self.client = client
            self.dpopThumbprint = dpopThumbprint
        }
    }

    package init(context: ServerContext, verifier: CeremonyVerifier) {
        self.context = context
        self.verifier = verifier
    }

    /// The token response of the ceremony `parameters` complete.
    /// - Throws: `OAuthError` (`invalid_grant` for the session or the ceremony) or the verifier's `WebAuthnError`.
    package func complete(_ parameters: Parameters) async throws -> TokenResponse {
        let client = parameters.client
        let authnResponse = parameters.authnResponse
        guard let handle = AuthSessionHandle(presented: parameters.authSession) else {
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
        if let found = lookup, now < found.session.expiresAt, found.session.kind == .signup {
            return try await signup(
                found.session, parameters, credential: credential, credentialID: credentialID, now: now)
        }
        guard let found = lookup, now < found.session.expiresAt, found.session.kind == .login else {
            // Unknown, expired or already used (an expired one is removed by the attempt to spend it).
            _ = try await spendSession(sessionID, now: now)
            let error = OAuthError.invalidSession("session_unknown", reason: "unknown, expired or already used")
            await recordRefusal(.login, error, now: now, clientID: client.clientID, credentialID: credentialID)
            throw error
        }
        do {
            let request = try GrantRequest(
                found.session, realmName: parameters.realm, client: client, access: parameters.access, now: now,
                dpop: parameters.dpopThumbprint)
            return try await login(found, credential: credential, sent: authnResponse, request: request)
        } catch {
            try await refused(
                .login, error, sessionID: sessionID, now: now, clientID: client.clientID, userID: found.user?.id,
                credentialID: credentialID)
        }
    }

    /// The sign-up `session` (unexpired at `now`, as read) completes: its answer, or its refusal (`refused`).
    private func signup(
        _ session: AuthSession, _ parameters: Parameters, credential: Result<PublicKeyCredentialJSON, WebAuthnError>,
        credentialID: [UInt8]?, now: Date
    ) async throws -> TokenResponse {
        do {
            let request = try GrantRequest(
                session, realmName: parameters.realm, client: parameters.client, access: parameters.access, now: now,
                dpop: parameters.dpopThumbprint)
            return try await signup(
                session: session, credential: credential, sent: parameters.authnResponse, request: request)
        } catch {
            try await refused(
                .signup, error, sessionID: session.id, now: now, clientID: parameters.client.clientID, userID: nil,
                credentialID: credentialID)
        }
    }

    /// Answers a ceremony's refusal `error`. A 503 means nothing was written (docs/api.md, "temporarily_unavailable"):
    /// the database was unavailable or the request ran out of time before its write. The session stays as it was,
    /// so the client's retry of the same grant can still complete the ceremony before the session expires. Any
    /// other refusal still spends the session (single use, whatever the outcome), and enters the audit log in the
    /// same write. If the refusal was the store failing otherwise, this may fail too; the session then expires on its
    /// own.
    private func refused(
        _ kind: SecurityEvent.Kind, _ error: any Error, sessionID: String, now: Date, clientID: String,
        userID: String?, credentialID: [UInt8]?
    ) async throws -> Never {
        if OAuthError.mapping(error).kind == .temporarilyUnavailable { throw error }
        let event = AuthenticationAuditEvent.refusal(
            kind, error, now: now, clientID: clientID, userID: userID, credentialID: credentialID)
        _ = try? await spendSession(sessionID, now: now, recording: event)
        throw error
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
        _ kind: SecurityEvent.Kind, _ error: any Error, now: Date, clientID: String, credentialID: [UInt8]?
    ) async {
        let event = AuthenticationAuditEvent.refusal(
            kind, error, now: now, clientID: clientID, credentialID: credentialID)
        _ = try? await context.store.write { writer in _ = try writer.appendSecurityEvent(event) }
    }

    /// RFC 8176 `amr`: a hardware-bound key, plus `user` when the authenticator verified the user.
    package static func authenticationMethods(userVerified: Bool) -> [String] {
        userVerified ? ["hwk", "user"] : ["hwk"]
    }

    /// The token response after a verified passkey ceremony (sign-up or login): counted, then minted with the
    /// ceremony's instant as `auth_time` and its `amr`.
    package func ceremonyTokens(
        event: String, user: User, userVerified: Bool, refreshToken: String?, request: GrantRequest
    ) async throws -> TokenResponse {
        context.metrics.count(event: event)
        return try await context.tokens.tokenResponse(
            for: TokenService.Grant(
                user: user, clientID: request.client.clientID, access: request.access, authTime: request.now,
                authenticationMethods: Self.authenticationMethods(userVerified: userVerified),
                dpopThumbprint: request.dpopThumbprint, sessionID: request.sessionID, isLogin: true),
            refreshToken: refreshToken, now: request.now)
    }
}
