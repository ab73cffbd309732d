import Crypto
import JSON
import Storage
import WebAuthn

extension WebAuthnGrant {
    /// A signup session (opened and unexpired): WebAuthn L3 §7.1 on the attestation, then one transaction that spends
    /// the session and stores the user and the credential (with what `completion` adds: the first refresh token, or
    /// the hosted page's session and code): of concurrent
    /// presentations only the one whose write spends the session succeeds, and a write that fails (503) leaves the
    /// session unspent.
    /// `credential` is the response as read from `sent` (the `authn_response` JSON): a malformed one is a refused
    /// ceremony, judged (and recorded in record mode) like any other.
    package func signup(
        session: AuthSession, credential: Result<PublicKeyCredentialJSON, WebAuthnError>, sent: JSONValue,
        request: GrantRequest, completion: CeremonyCompletion = .tokens
    ) async throws -> CompletedCeremony {
        guard let userHandle = session.userHandle else {
            throw OAuthError.bug("signup session without user handle")
        }
        // A session without identifiers adds a passkey to an existing user (`/me/passkeys/challenge`): it is
        // completed by `POST /me/passkeys`, never here.
        guard session.email != nil || session.phoneNumber != nil || session.username != nil else {
            throw OAuthError.invalidSession("session_for_enrolment", reason: "an add-passkey session")
        }
        let userID = try Self.newUserID()
        let registered = try verifier.registeredCredential(
            challenge: session.challenge, credential: credential, sent: sent, client: request.client,
            realm: session.realm, userID: userID, now: request.now, originPolicy: completion.hosted?.originPolicy)
        let credential = registered.credential
        let user = User(
            id: userID, userHandle: userHandle, realm: session.realm, email: session.email,
            phoneNumber: session.phoneNumber, username: session.username, name: session.name, createdAt: request.now,
            profile: session.profile)
        let methods = Self.authenticationMethods(userVerified: registered.userVerified)
        let refresh =
            completion.issuesRefreshToken
            ? try request.refreshToken(for: user, authenticationMethods: methods, tokens: context.tokens) : nil
        let hosted = completion.hosted?.records(
            user: user, authenticationMethods: methods, organizationID: session.organizationID, now: request.now)
        do {
            let (sessionID, expiresAt) = (session.id, session.expiresAt)
            let replaced = completion.hosted?.replacedSession
            try await context.store.write { writer in
                guard try writer.spendAuthSession(id: sessionID, expiresAt: expiresAt) else {
                    throw OAuthError.invalidSession("session_unknown", reason: "used by a concurrent request")
                }
                try writer.insertUser(user, credential: credential)
                // A sign-up in an organization makes the user its member, in the user's own write.
                if let organizationID = session.organizationID {
                    _ = try writer.addOrganizationMember(
                        OrganizationMember(organizationID: organizationID, userID: user.id, addedAt: request.now))
                }
                if let refresh { try writer.insertRefreshToken(refresh.record) }
                try writer.insertHostedLogin(
                    session: hosted?.session, code: hosted?.code, replacing: replaced)
                _ = try writer.appendSecurityEvent(
                    AuthenticationAuditEvent.make(
                        .signup, outcome: AuthenticationAuditEvent.success, now: request.now,
                        userID: user.id, clientID: request.client.clientID, credentialID: credential.credentialID,
                        familyID: refresh?.record.familyID))
            }
        } catch let error as StorageError where error.code == .conflict {
            // Nothing was written either way. §7.1 step 26: a credential id already registered is a failed
            // ceremony. An identifier taken since /passkey/register lost the race to another sign-up: answered as
            // /passkey/register answers a taken identifier (the app offers a login), not as a failed passkey.
            switch error.constraint {
            case .userEmail, .userPhoneNumber, .userUsername: throw OAuthError.identifierTaken(realm: user.realm)
            case .credentialID: throw OAuthError.ceremonyFailed("credential_exists", reason: error.description)
            // Random ids (`sub`, the user handle) that collided: as before, a refused ceremony.
            default: throw OAuthError.ceremonyFailed("identifier_taken", reason: error.description)
            }
        } catch let error as StorageError where error.code == .notFound {
            // The session's organization is gone (deleted since /passkey/register).
            throw OAuthError.organizationInvalid(session.organizationID ?? "")
        }
        context.metrics.count(event: "signup")
        return CompletedCeremony(
            event: "signup", user: user, userVerified: registered.userVerified, refreshToken: refresh?.value,
            request: request)
    }

    /// A user id (`sub`): 16 random bytes in hex, nothing personal.
    package static func newUserID() throws -> String {
        try SecureRandom.bytes(count: 16).map { byte in
            let hex = String(byte, radix: 16)
            return byte < 16 ? "0" + hex : hex
        }.joined()
    }
}
