import Crypto
import Foundation
import HTTP
import JSON
import Service
import Storage
import WebAuthn

/// The signed-in user's passkeys (`/me/passkeys`): list, add, rename, remove; recovery codes; account deletion.
/// Every endpoint needs an access token for the account API (`<issuer>me/`, which a client asks for explicitly and no
/// other API's token carries, so a token minted for an API never manages the account); changes that a stolen refresh
/// token must not buy need a fresh login (`FreshLoginRequirement`, five minutes). Adding a passkey also accepts
/// the restricted token of a recovery (`RecoveryToken`), and nothing else does.
package struct PasskeyLifecycleEndpoints: Sendable {
    package let context: ServerContext
    /// The registration verifier and the clients' origin policies (one home: `TokenEndpoint`).
    package let registration: TokenEndpoint

    /// Longest passkey name, in characters.
    package static let maximumNameLength = 64
    /// Longest credential id in a path (WebAuthn L3 §4: at most 1023 bytes, base64url).
    package static let maximumCredentialIDLength = 1364

    package static func register(in router: inout Router, context: ServerContext) {
        let endpoints = PasskeyLifecycleEndpoints(context: context, registration: TokenEndpoint(context: context))
        func handler(_ body: @escaping @Sendable (Request) async throws -> Response) -> Router.Handler {
            EndpointHandler.make(context, body)
        }
        router.add(.get, "/me/passkeys", handler { try await endpoints.list($0) })
        router.add(.post, "/me/passkeys/challenge", handler { try await endpoints.addChallenge($0) })
        router.add(.post, "/me/passkeys", handler { try await endpoints.add($0) })
        router.add(.patch, "/me/passkeys/{credential_id}", handler { try await endpoints.rename($0) })
        router.add(.delete, "/me/passkeys/{credential_id}", handler { try await endpoints.remove($0) })
        router.add(.post, "/me/recovery-codes", handler { try await endpoints.generateRecoveryCodes($0) })
        router.add(.delete, "/me", handler { try await endpoints.deleteAccount($0) })
    }

    // MARK: who is asking

    /// The signed-in user of an access token for the account API, within the per-user rate limit.
    package func signedIn(_ request: Request) async throws -> (AuthenticatedSubject, User) {
        let subject = try await context.tokens.authenticate(request, audience: context.tokens.accountAudience)
        try EndpointHandler.checkUserRateLimit(subject, context: context)
        return (subject, try await user(subject))
    }

    /// `signedIn`, with a login at most `FreshLoginRequirement.accountChangeMaxAge` old (RFC 9470 step-up otherwise).
    package func freshlySignedIn(_ request: Request, change: String) async throws -> (AuthenticatedSubject, User) {
        let (subject, user) = try await signedIn(request)
        try requireFreshLogin(subject, change: change)
        return (subject, user)
    }

    private func requireFreshLogin(_ subject: AuthenticatedSubject, change: String) throws {
        let requirement = FreshLoginRequirement(for: .accountChange, in: context.configuration)
        if let refusal = requirement.stepUpRefusal(subject, now: context.clock.now(), change: change) { throw refusal }
    }

    /// Who may add a passkey: a freshly signed-in user, or the holder of an unspent recovery token (then
    /// `viaRecovery`).
    package func enrolling(_ request: Request) async throws -> (
        subject: AuthenticatedSubject, user: User, viaRecovery: Bool
    ) {
        let subject: AuthenticatedSubject
        do {
            subject = try await context.tokens.authenticate(request, audience: context.tokens.accountAudience)
        } catch let ordinary {
            // A recovery token is for its own audience only, so every other endpoint refuses it; here it is
            // accepted with its scope and method, which only the recovery grant mints.
            guard
                let recovery = try? await context.tokens.authenticate(
                    request, audience: RecoveryToken.audience(issuer: context.configuration.issuer),
                    checkingSession: false),
                recovery.scope.contains(RecoveryToken.scope),
                recovery.authenticationMethods == RecoveryToken.authenticationMethods
            else { throw ordinary }
            try EndpointHandler.checkUserRateLimit(recovery, context: context)
            // Single use (`RecoveryToken`): once it has added a passkey, the token buys nothing (RFC 6750 §3.1).
            // This read answers early; the spend in `add`'s write is what decides a race.
            let jwtID = recovery.tokenID
            if try await context.store.read({ try $0.isTokenSpent(jwtID: jwtID) }) {
                throw PasskeyLifecycleRefusal.recoveryTokenSpent(recovery)
            }
            try await context.tokens.checkSession(recovery)
            return (recovery, try await user(recovery), true)
        }
        try EndpointHandler.checkUserRateLimit(subject, context: context)
        try requireFreshLogin(subject, change: "Adding a passkey")
        return (subject, try await user(subject), false)
    }

    private func user(_ subject: AuthenticatedSubject) async throws -> User {
        guard let user = try await context.store.read({ try $0.user(id: subject.sub) }) else {
            throw OAuthError(.invalidToken, "The access token is invalid.", logCode: "token_user_gone")
        }
        return user
    }

    // MARK: list

    /// `GET /me/passkeys` → `{user: {id, user_handle, name, display_name}, passkeys: [...]}`: what a page needs for
    /// the Signal API (`signalAllAcceptedCredentials` takes the user handle and the ids, `signalCurrentUserDetails`
    /// the names).
    package func list(_ request: Request) async throws -> Response {
        let (_, user) = try await signedIn(request)
        let credentials = try await context.store.read { try $0.credentials(userID: user.id) }
        return .json(
            .object([
                JSONMember(key: "user", value: PasskeyRepresentation.userJSON(user)),
                JSONMember(key: "passkeys", value: .array(credentials.map(PasskeyRepresentation.passkeyJSON))),
            ]))
    }

    // MARK: add

    /// `POST /me/passkeys/challenge` → `{authn_params_public_key, auth_session}`: creation options for the user,
    /// with `excludeCredentials` listing their passkeys (WebAuthn L3 §5.4) and the client's `hints`.
    ///
    /// The session is a registration session bound to the user's handle and no identifier: only
    /// `POST /me/passkeys` of the same user and client completes it (the token endpoint refuses it).
    package func addChallenge(_ request: Request) async throws -> Response {
        let (subject, user, _) = try await enrolling(request)
        guard let client = context.configuration.client(id: subject.clientID) else {
            throw OAuthError(.invalidToken, "The access token is invalid.", logCode: "token_client_gone")
        }
        let configuration = context.configuration
        let now = context.clock.now()
        let handle = try AuthSessionHandle.generate()
        let challenge = try SecureRandom.bytes(count: 32)
        // The WebAuthn timeout plus the grace of a network round trip, as every ceremony's session.
        let session = AuthSession(
            id: handle.sessionID, clientID: client.clientID, realm: user.realm, kind: .signup, challenge: challenge,
            userHandle: user.userHandle, createdAt: now,
            expiresAt: PasskeyEndpoints.sessionExpiry(now: now, configuration: configuration))
        let userID = user.id
        let existing = try await context.store.write { writer in
            try writer.insertAuthSession(session)
            return try writer.credentials(userID: userID)
        }
        let names = PasskeyRepresentation.names(user)
        let options = CreationOptions(
            challenge: challenge, userHandle: user.userHandle, userName: names.name, displayName: names.displayName,
            excluding: existing, hints: client.passkeyHints
        ).json(client: client, configuration: configuration)
        context.metrics.count(event: "passkey_add_challenge")
        return .json(
            .object([
                JSONMember(key: "authn_params_public_key", value: options),
                JSONMember(key: "auth_session", value: .string(handle.value)),
            ]))
    }

    /// `POST /me/passkeys` `{auth_session, authn_response}` → 201 with the new passkey. The session is spent by the
    /// first presentation; WebAuthn L3 §7.1 verifies the attestation; a credential id already registered (to
    /// anyone) is refused (§7.1 step 26). With a recovery token, the passkey spends the token in the same write
    /// (single use: a refused enrolment spends nothing) and the user's other sessions are revoked.
    package func add(_ request: Request) async throws -> Response {
        let (subject, user, viaRecovery) = try await enrolling(request)
        guard let client = context.configuration.client(id: subject.clientID) else {
            throw OAuthError(.invalidToken, "The access token is invalid.", logCode: "token_client_gone")
        }
        let parameters = try RequestParameters(request)
        let presented = try parameters.string("auth_session", maxLength: 128)
        let response = try parameters.object("authn_response")
        guard let handle = AuthSessionHandle(presented: presented) else {
            throw OAuthError.invalidSession("session_malformed")
        }
        let now = context.clock.now()
        let sessionID = handle.sessionID
        let session = try await context.store.write { try $0.consumeAuthSession(id: sessionID, now: now) }
        guard let session, session.kind == .signup, session.userHandle == user.userHandle,
            session.clientID == client.clientID,
            session.email == nil, session.phoneNumber == nil, session.username == nil
        else {
            throw OAuthError.invalidSession("session_unknown", reason: "unknown, expired, used or not this user's")
        }
        let credential: Credential
        do {
            let parsed = Result { () throws(WebAuthnError) in try PublicKeyCredentialJSON(json: response) }
            credential = try registration.registeredCredential(
                challenge: session.challenge, credential: parsed, sent: response, client: client, userID: user.id,
                now: now
            ).credential
        } catch {
            await record(
                PasskeyLifecycleAuditEvent.make(
                    PasskeyLifecycleAuditEvent.passkeyAdded, outcome: PasskeyLifecycleAuditEvent.failure, now: now,
                    userID: user.id, clientID: client.clientID,
                    reasonCode: ErrorMapping.oauthError(for: error).logCode))
            throw error
        }
        let userID = user.id
        let spentUntil = RecoveryToken.spentUntil(issuedAt: subject.issuedAt)
        do {
            try await context.store.write { writer in
                if viaRecovery {
                    // One statement decides, on any node: of concurrent enrolments with this token exactly one
                    // spends it; the others throw, rolling back their whole write (no second passkey).
                    guard try writer.spendToken(jwtID: subject.tokenID, expiresAt: spentUntil) else {
                        throw PasskeyLifecycleRefusal.recoveryTokenSpent(subject)
                    }
                }
                try writer.insertCredential(credential)
                _ = try writer.appendSecurityEvent(
                    PasskeyLifecycleAuditEvent.make(
                        PasskeyLifecycleAuditEvent.passkeyAdded, now: now, userID: userID, clientID: client.clientID,
                        credentialID: credential.credentialID, reasonCode: viaRecovery ? "recovery" : nil,
                        detail: viaRecovery ? RecoveryToken.eventDetail(jwtID: subject.tokenID) : nil))
                if viaRecovery {
                    // Whoever held the lost device's sessions loses them with the recovery.
                    let families = try writer.revokeRefreshTokens(userID: userID, now: now)
                    _ = try writer.appendSecurityEvent(
                        PasskeyLifecycleAuditEvent.make(
                            PasskeyLifecycleAuditEvent.sessionsRevoked, now: now, userID: userID,
                            clientID: client.clientID, reasonCode: "recovery", attempts: families))
                }
            }
        } catch let error as StorageError where error.code == .conflict {
            // §7.1 step 26: a credential id already registered is refused; nothing was written.
            let refusal = OAuthError.ceremonyFailed("credential_exists", reason: error.description)
            await record(
                PasskeyLifecycleAuditEvent.make(
                    PasskeyLifecycleAuditEvent.passkeyAdded, outcome: PasskeyLifecycleAuditEvent.failure, now: now,
                    userID: userID, clientID: client.clientID, credentialID: credential.credentialID,
                    reasonCode: refusal.logCode))
            throw refusal
        }
        context.metrics.count(event: "passkey_added")
        return .json(PasskeyRepresentation.passkeyJSON(credential), status: 201)
    }

    // MARK: rename, remove

    /// The credential id of the path; 404 when it is not base64url (it names no passkey).
    private func pathCredentialID(_ request: Request) throws -> [UInt8] {
        guard let text = request.pathParameters["credential_id"], !text.isEmpty,
            text.utf8.count <= Self.maximumCredentialIDLength, let id = Base64URL.decode(text)
        else { throw PasskeyLifecycleRefusal.passkeyNotFound }
        return id
    }

    /// `PATCH /me/passkeys/{id}` `{name}` → 200 with the passkey. The name is 1 to 64 characters without control
    /// characters, stored as given and returned JSON-escaped (pages must insert it as text); `null` restores the
    /// provider's name. Another user's id is 404.
    package func rename(_ request: Request) async throws -> Response {
        let (subject, user) = try await signedIn(request)
        let credentialID = try pathCredentialID(request)
        let body = try RequestParameters(request)
        let name = try body.optionalString("name", maxLength: 4 * Self.maximumNameLength)
        if let name {
            let trimmed = name.trimmingCharacters(in: .whitespaces)
            guard !trimmed.isEmpty, trimmed.count <= Self.maximumNameLength,
                !trimmed.unicodeScalars.contains(where: {
                    $0.properties.generalCategory == .control || $0.properties.generalCategory == .format
                        || $0.properties.generalCategory == .lineSeparator
                        || $0.properties.generalCategory == .paragraphSeparator
                })
            else {
                throw OAuthError.invalidParameter(
                    "name", reason: "must be 1 to \(Self.maximumNameLength) characters without control characters")
            }
        }
        let stored = name?.trimmingCharacters(in: .whitespaces)
        let now = context.clock.now()
        let userID = user.id
        let renamed = try await context.store.write { writer -> Credential? in
            guard try writer.renameCredential(id: credentialID, userID: userID, name: stored) else { return nil }
            _ = try writer.appendSecurityEvent(
                PasskeyLifecycleAuditEvent.make(
                    PasskeyLifecycleAuditEvent.passkeyRenamed, now: now, userID: userID, clientID: subject.clientID,
                    credentialID: credentialID))
            return try writer.credential(id: credentialID)
        }
        guard let renamed else { throw PasskeyLifecycleRefusal.passkeyNotFound }
        return .json(PasskeyRepresentation.passkeyJSON(renamed))
    }

    /// Whether `userID` has a way in besides passkeys: recovery codes or a password verifier.
    package static func hasOtherWayIn(_ reader: any StoreReader, userID: String) throws -> Bool {
        try !reader.recoveryCodes(userID: userID).isEmpty || reader.passwordVerifier(userID: userID) != nil
    }

    /// `DELETE /me/passkeys/{id}` → 204 (fresh login). The last passkey is refused (409 `last_passkey`) unless the
    /// user has recovery codes or a password verifier; another user's id is 404. Decided and done in one write.
    package func remove(_ request: Request) async throws -> Response {
        let (subject, user) = try await freshlySignedIn(request, change: "Removing a passkey")
        let credentialID = try pathCredentialID(request)
        let now = context.clock.now()
        let userID = user.id
        let outcome = try await context.store.write { writer -> PasskeyLifecycleRefusal.Removal in
            let credentials = try writer.credentials(userID: userID)
            guard credentials.contains(where: { $0.credentialID == credentialID }) else { return .notFound }
            let otherWayIn = try credentials.count > 1 || Self.hasOtherWayIn(writer, userID: userID)
            guard otherWayIn else {
                _ = try writer.appendSecurityEvent(
                    PasskeyLifecycleAuditEvent.make(
                        PasskeyLifecycleAuditEvent.passkeyRemoved, outcome: PasskeyLifecycleAuditEvent.failure,
                        now: now, userID: userID, clientID: subject.clientID, credentialID: credentialID,
                        reasonCode: OAuthError.Kind.lastPasskey.rawValue))
                return .last
            }
            _ = try writer.deleteCredential(id: credentialID, userID: userID)
            _ = try writer.appendSecurityEvent(
                PasskeyLifecycleAuditEvent.make(
                    PasskeyLifecycleAuditEvent.passkeyRemoved, now: now, userID: userID, clientID: subject.clientID,
                    credentialID: credentialID))
            return .removed
        }
        switch outcome {
        case .removed: return .empty()
        case .notFound: throw PasskeyLifecycleRefusal.passkeyNotFound
        case .last: throw PasskeyLifecycleRefusal.lastPasskey
        }
    }

    // MARK: recovery codes

    /// `POST /me/recovery-codes` → 201 `{recovery_codes: [10 codes], created_at}` (fresh login). Shown this once;
    /// the previous set is revoked in the same write.
    package func generateRecoveryCodes(_ request: Request) async throws -> Response {
        let (subject, user) = try await freshlySignedIn(request, change: "Generating recovery codes")
        let now = context.clock.now()
        let generated = try RecoveryCodes.generate(userID: user.id, now: now)
        let userID = user.id
        let records = generated.records
        let revoked = try await context.store.write { writer -> Int in
            let revoked = try writer.replaceRecoveryCodes(userID: userID, with: records)
            _ = try writer.appendSecurityEvent(
                PasskeyLifecycleAuditEvent.make(
                    PasskeyLifecycleAuditEvent.recoveryCodesGenerated, now: now, userID: userID,
                    clientID: subject.clientID, reasonCode: revoked > 0 ? "replaced" : "created"))
            return revoked
        }
        var response = Response.json(
            .object([
                JSONMember(key: "recovery_codes", value: .array(generated.codes.map { .string($0) })),
                JSONMember(key: "created_at", value: RFC3339.timestamp(now)),
                JSONMember(key: "revoked_previous", value: .bool(revoked > 0)),
            ]), status: 201)
        // Shown once: no cache may keep them (RFC 9111 §5.2.2.5).
        response.headers.replace(name: "Cache-Control", value: "no-store")
        return response
    }

    // MARK: account deletion

    /// `DELETE /me` → 204 (fresh login): the user and every row of theirs outside the audit log, in one write;
    /// the audit log keeps the user id only.
    package func deleteAccount(_ request: Request) async throws -> Response {
        let (subject, user) = try await freshlySignedIn(request, change: "Deleting the account")
        try await AccountDeletion.deleteUser(
            user, store: context.store, now: context.clock.now(), clientID: subject.clientID)
        context.metrics.count(event: "account_deleted")
        return .empty()
    }

    /// Appends `event` in a write of its own (best effort: the refusal is answered anyway).
    private func record(_ event: SecurityEvent) async {
        _ = try? await context.store.write { writer in _ = try writer.appendSecurityEvent(event) }
    }
}
