import Configuration
import Crypto
import Foundation
import JSON
import Storage
import Tokens

/// The hosted login page's back end (issue 38): completes the page's passkey ceremony with a login session and an
/// authorization code (`complete`), answers a silent `/authorize` within a live session (`issueCode`), and ends a
/// session (`logout`, `HostedLogin+Logout.swift`).
///
/// The ceremony is the webauthn grant's own implementation (`WebAuthnGrant.ceremony`): the same sealed `auth_session`,
/// reads, verifier, counter, organization rules and refusals; its one write stores the session and the code instead
/// of a refresh token. Sessions and codes are in the store, by the SHA-256 of their values, so every node sees a
/// logout and a code is redeemed once across nodes.
package struct HostedLogin: Sendable {
    package let context: ServerContext
    /// The passkey ceremony's one implementation.
    package let grant: WebAuthnGrant

    /// What a completed hosted ceremony hands the page: the session cookie's value and expiry, and the code.
    package struct Completion: Sendable, Equatable {
        /// The login session's cookie value: 32 random bytes, base64url (only its SHA-256 is stored).
        package let sessionCookie: String
        /// When the session ends (the cookie's `Max-Age` is the time left until then).
        package let sessionExpiresAt: Date
        /// The authorization code: 32 random bytes, base64url (only its SHA-256 is stored), valid 60 s.
        package let code: String
    }

    /// The answer to a silent `/authorize`.
    package enum SilentOutcome: Sendable, Equatable {
        /// A code of the live session (redirected with `code`, `state`, `iss`).
        case code(String)
        /// No usable session (OIDC Core §3.1.2.6 `login_required` for `prompt=none`; otherwise the page).
        case loginRequired
    }

    package init(context: ServerContext, verifier: CeremonyVerifier) {
        self.context = context
        self.grant = WebAuthnGrant(context: context, verifier: verifier)
    }

    /// A hosted login of `context`'s configuration.
    package init(context: ServerContext) {
        self.init(context: context, verifier: CeremonyVerifier(context: context))
    }

    /// Completes the passkey ceremony `authSession` started (from the hosted page's `/u/passkey/challenge` or
    /// `/u/passkey/register`) with `authnResponse`, for the authorization request `issuance`: the expected origins are
    /// the hosted page's (`CeremonyVerifier.hostedOriginPolicy`); the session must be the request's client's and of
    /// its realm. Audited as the ceremony (`login` or `signup`, with the client), as the grant is.
    /// The new login session replaces the one whose cookie value the browser presented (`replacing`), which ends in
    /// the same write, audited there as a `logout` of its user with `reason: replaced` when it was live.
    /// - Throws: as `WebAuthnGrant.complete` (`invalid_grant` for the session or the ceremony, …).
    package func complete(
        _ issuance: CodeIssuance, authSession: String, authnResponse: JSONValue, replacing presented: String? = nil
    ) async throws -> Completion {
        let sessionCookie = try Self.newValue()
        let code = try Self.newValue()
        let lifetime = TimeInterval(context.configuration.hostedLoginSessionLifetime)
        var records = CeremonyCompletion.HostedRecords(
            issuance: issuance, sessionHash: sessionCookie.hash, codeHash: code.hash,
            sessionLifetime: lifetime, originPolicy: grant.verifier.hostedOriginPolicy(realm: issuance.realm))
        // The replaced session's end is audited as a logout (`reason: replaced`) by the write that ends it.
        records.replacedSession = presented.flatMap(Self.hashOfPresented).map { hash in
            LoginSessionReplacement(
                sessionHash: hash,
                event: AuthenticationAuditEvent.make(
                    .logout, outcome: AuthenticationAuditEvent.success, now: context.clock.now(),
                    clientID: issuance.client.clientID, reasonCode: "replaced"))
        }
        var parameters = WebAuthnGrant.Parameters(
            authSession: authSession, authnResponse: authnResponse, access: issuance.access, realm: issuance.realm,
            client: issuance.client, dpopThumbprint: nil)
        parameters.organization = issuance.organization
        let done = try await grant.ceremony(parameters, completing: .hosted(records))
        return Completion(
            sessionCookie: sessionCookie.value, sessionExpiresAt: done.request.now.addingTimeInterval(lifetime),
            code: code.value)
    }

    /// A code for `issuance` in the login session whose cookie value is `sessionCookie`, without a ceremony (a second
    /// `/authorize`): `.loginRequired` when there is no cookie, or its session is unknown, ended, expired, of another
    /// realm, or authenticated more than `maxAge` seconds ago (OIDC Core §3.1.2.1 `max_age`). The code carries the
    /// session's `auth_time` and `amr`. An `organization` must name one the user is a member of.
    /// - Throws: 400 `invalid_request` for an organization the client may not name or that does not exist, 403
    ///   `access_denied` when the user is not its member; a store failure.
    package func issueCode(for issuance: CodeIssuance, sessionCookie: String?, maxAge: Int?) async throws
        -> SilentOutcome
    {
        guard let sessionHash = sessionCookie.flatMap(Self.hashOfPresented) else { return .loginRequired }
        let asked = try OrganizationRequest.checked(
            issuance.organization, client: issuance.client, configuration: context.configuration)
        let code = try Self.newValue()
        let codeHash = code.hash
        let now = context.clock.now()
        let issued = try await context.store.write { writer -> Bool in
            // Read in the write: a logout committed before it is seen.
            guard let session = try writer.loginSession(idHash: sessionHash), session.isLive(at: now),
                session.realm == issuance.realm, Self.withinMaxAge(session, maxAge, now: now)
            else { return false }
            var organizationID: String? = nil
            if let asked {
                let organization = try asked.resolve(writer)
                guard try writer.isOrganizationMember(organizationID: organization.id, userID: session.userID) else {
                    throw OAuthError.notOrganizationMember(userID: session.userID, organizationID: organization.id)
                }
                organizationID = organization.id
            }
            try writer.insertHostedLogin(
                session: nil,
                code: issuance.code(hash: codeHash, session: session, organizationID: organizationID, now: now))
            return true
        }
        return issued ? .code(code.value) : .loginRequired
    }

    /// OIDC Core §3.1.2.1: with `max_age`, a session authenticated longer ago must authenticate again.
    static func withinMaxAge(_ session: LoginSession, _ maxAge: Int?, now: Date) -> Bool {
        guard let maxAge else { return true }
        return now.timeIntervalSince(session.authTime) <= TimeInterval(max(0, maxAge))
    }

    /// A new session cookie value or code. Both follow the project's one rule for opaque secrets, that of refresh
    /// tokens (`RefreshToken`): 32 random bytes from OpenSSL's CSPRNG, base64url, one spelling, only the SHA-256
    /// of the bytes stored.
    static func newValue() throws -> Tokens.RefreshToken {
        try Tokens.RefreshToken(randomBytes: SecureRandom.bytes(count: Tokens.RefreshToken.byteCount))
    }

    /// The hash of a presented value, nil when it cannot be one of ours (not the canonical base64url of 32 bytes:
    /// `RefreshToken(presented:)`), so nothing else is hashed or looked up.
    package static func hashOfPresented(_ value: String) -> [UInt8]? {
        try? Tokens.RefreshToken(presented: value).hash
    }
}
