import Configuration
import Foundation
import JSON
import Storage
import WebAuthn

/// `grant_type=urn:okta:params:oauth:grant-type:webauthn` (Auth0's native passkey flow): completes the ceremony an
/// `auth_session` started, a sign-up (`+Signup`) or a login (`+Login`), and mints the tokens.
///
/// The session is sealed in the `auth_session` value itself (`AuthSessionSealer`): a value that does not open, or
/// has expired, is an unknown session. It is single-use and spent by the first request that presents it, whatever
/// the outcome — except a 503 (nothing was written, docs/api.md), which leaves it for the client's retry. Spending
/// records its id (`StoreWriter.spendAuthSession`) in the write that completes or refuses the ceremony; a
/// presentation that finds it recorded already is refused as an unknown session.
/// Store traffic for a login: one read finds the credential and its user (`loginCredential`, one statement on
/// PostgreSQL); the assertion is verified; then ONE write spends the session, compare-and-sets the counter and
/// stores the refresh token — of concurrent presentations, on any node, only the one whose write spends the session
/// succeeds. A sign-up likewise: the attestation verified, then one write that spends the session and stores the
/// user, the credential and the refresh token. Any other refusal spends the session, with its audit event, in a
/// write of its own before it is answered.
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
        /// `organization` as sent, if at all: judged against the client's `organization_usage`, and then it must
        /// name the session's organization (Auth0's SDKs send the challenge's again).
        package var organization: String? = nil

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

    /// A ceremony completed by its one write: what its answer is made of.
    package struct CompletedCeremony: Sendable {
        /// `login` or `signup` (the metric counted).
        package let event: String
        /// The user who logged in or signed up.
        package let user: User
        /// Whether the authenticator verified the user (the `amr`).
        package let userVerified: Bool
        /// The login's first refresh token, when the write stored one (`CeremonyCompletion.tokens`).
        package let refreshToken: String?
        /// The settled request (client, access, instant, DPoP key, session id, organization).
        package let request: GrantRequest
    }

    /// The token response of the ceremony `parameters` complete.
    /// - Throws: `OAuthError` (`invalid_grant` for the session or the ceremony) or the verifier's `WebAuthnError`.
    package func complete(_ parameters: Parameters) async throws -> TokenResponse {
        let done = try await ceremony(parameters, completing: .tokens)
        return try await ceremonyTokens(
            event: done.event, user: done.user, userVerified: done.userVerified, refreshToken: done.refreshToken,
            request: done.request)
    }

    /// The one implementation of a passkey ceremony's completion, the grant's and the hosted page's: the sealed
    /// session opened, the reads, the organization rules, `CeremonyVerifier`, the counter and the refusal handling;
    /// `completion` decides only what the one write adds and which origins are expected.
    /// - Throws: as `complete`.
    package func ceremony(_ parameters: Parameters, completing completion: CeremonyCompletion) async throws
        -> CompletedCeremony
    {
        let client = parameters.client
        let authnResponse = parameters.authnResponse
        // Parsed before the store is read, only to know which credential to read; a parse failure is reported
        // after the session is spent.
        let credential = Result { () throws(WebAuthnError) in try PublicKeyCredentialJSON(json: authnResponse) }
        let credentialID = try? credential.get().rawID
        let now = context.clock.now()
        // A value that does not open (tampered, truncated, another key or version, a handle from before sealing)
        // and an expired session are both an unknown session: nothing to spend, the refusal is recorded. WebAuthn L3
        // §13.4.3: the challenge is the server's, random, and used once (spent in the ceremony's write).
        guard let session = try await context.openAuthSession(parameters.authSession),
            now < session.expiresAt
        else {
            await recordRefusal(
                .login, Self.unknownSession, now: now, clientID: client.clientID, credentialID: credentialID)
            throw Self.unknownSession
        }
        let kind: SecurityEvent.Kind = session.kind == .signup ? .signup : .login
        // A login reads the credential the assertion names and its user, and, in an organization, whether that user
        // is a member (a sign-up reads nothing).
        let found =
            kind == .login ? try await context.store.read { try Self.loginRead($0, credentialID, session) } : nil
        do {
            try Self.checkOrganization(parameters.organization, session: session, client: client, context: context)
            let request = try GrantRequest(
                session, realmName: parameters.realm, client: client, access: parameters.access, now: now,
                dpop: parameters.dpopThumbprint)
            if session.kind == .signup {
                return try await signup(
                    session: session, credential: credential, sent: authnResponse, request: request,
                    completion: completion)
            }
            return try await login(
                session, found?.credential ?? LoginCredential(credential: nil, user: nil), credential: credential,
                sent: authnResponse, request: request, isMember: found?.isMember ?? false, completion: completion)
        } catch {
            try await refused(
                kind, error, session: session, now: now, clientID: client.clientID,
                userID: found?.credential.user?.id, credentialID: credentialID)
        }
    }

    /// A login's read: the credential and its user (`loginCredential`), and whether that user is a member of the
    /// session's organization (true when the session is in none).
    private static func loginRead(_ reader: any StoreReader, _ credentialID: [UInt8]?, _ session: AuthSession) throws
        -> (credential: LoginCredential, isMember: Bool)
    {
        let found = try reader.loginCredential(id: credentialID)
        guard let organizationID = session.organizationID else { return (found, true) }
        guard let user = found.user else { return (found, false) }
        return (found, try reader.isOrganizationMember(organizationID: organizationID, userID: user.id))
    }

    /// The token request's `organization` against the session's: judged against the client's `organization_usage`
    /// (`OrganizationRequest.checked`: a client that requires one refuses a request without it), and, when sent, it
    /// must name the session's organization (so a session in none is refused too).
    /// - Throws: 400 `invalid_request` with Auth0's description.
    private static func checkOrganization(
        _ value: String?, session: AuthSession, client: ClientConfiguration, context: ServerContext
    ) throws {
        let asked = try OrganizationRequest.checked(value, client: client, configuration: context.configuration)
        if let asked, !asked.names(id: session.organizationID, name: session.organizationName) {
            throw OAuthError.organizationInvalid(value ?? "")
        }
    }

    /// The refusal of a session that is unknown, expired or already used.
    static let unknownSession = OAuthError.invalidSession("session_unknown", reason: "unknown, expired or already used")

    /// Answers a ceremony's refusal `error`. A 503 means nothing was written (docs/api.md, "temporarily_unavailable"):
    /// the database was unavailable or the request ran out of time before its write. The session stays unspent,
    /// so the client's retry of the same grant can still complete the ceremony before the session expires. Any
    /// other refusal spends the session (single use, whatever the outcome) and enters the audit log in the same
    /// write; a session found spent already is refused as an unknown session, as it would have been before its
    /// ceremony was judged. If the refusal was the store failing otherwise, this may fail too; the session then
    /// stays unspent until it expires.
    private func refused(
        _ kind: SecurityEvent.Kind, _ error: any Error, session: AuthSession, now: Date, clientID: String,
        userID: String?, credentialID: [UInt8]?
    ) async throws -> Never {
        if OAuthError.mapping(error).kind == .temporarilyUnavailable { throw error }
        let event = AuthenticationAuditEvent.refusal(
            kind, error, now: now, clientID: clientID, userID: userID, credentialID: credentialID)
        // Recorded as the refusal of an unknown session is (`complete`).
        let spentBefore = AuthenticationAuditEvent.refusal(
            .login, Self.unknownSession, now: now, clientID: clientID, credentialID: credentialID)
        let (id, expiresAt) = (session.id, session.expiresAt)
        // An authenticator policy refusal's own events (`authenticator_refused`, `authenticator_reported`) commit
        // with the refusal's.
        let more = OAuthError.mapping(error).securityEvents
        let spent = try? await context.store.write { writer -> Bool in
            let spent = try writer.spendAuthSession(id: id, expiresAt: expiresAt)
            _ = try writer.appendSecurityEvent(spent ? event : spentBefore)
            if spent { for event in more { _ = try writer.appendSecurityEvent(event) } }
            return spent
        }
        throw spent == false ? Self.unknownSession : error
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

    /// The token response after a verified passkey ceremony (sign-up or login), minted with the ceremony's instant
    /// as `auth_time` and its `amr`.
    package func ceremonyTokens(
        event: String, user: User, userVerified: Bool, refreshToken: String?, request: GrantRequest
    ) async throws -> TokenResponse {
        try await context.tokens.tokenResponse(
            for: TokenService.Grant(
                user: user, clientID: request.client.clientID, access: request.access, authTime: request.now,
                authenticationMethods: Self.authenticationMethods(userVerified: userVerified),
                dpopThumbprint: request.dpopThumbprint, sessionID: request.sessionID, isLogin: true,
                organizationID: request.organizationID, organizationName: request.organizationName),
            refreshToken: refreshToken, now: request.now)
    }
}
