import Crypto
import HTTP
import JSON
import Service

/// The signed-in user's passkeys (`/me/passkeys`): list, add, rename, remove; recovery codes; account deletion.
/// Each endpoint finds the caller (`AccountAuthentication`: an access token for the account API, a fresh login for
/// the changes a stolen refresh token must not buy, a recovery token for adding a passkey), parses the rest of the
/// request, runs the flow (`PasskeyLifecycle`, `PasskeyEnrolment`) and renders the outcome.
package struct PasskeyLifecycleEndpoints: Sendable {
    package let context: ServerContext
    package let authentication: AccountAuthentication
    package let lifecycle: PasskeyLifecycle
    package let enrolment: PasskeyEnrolment

    /// Longest credential id in a path (WebAuthn L3 §4: at most 1023 bytes, base64url).
    package static let maximumCredentialIDLength = 1364

    package init(context: ServerContext) {
        self.context = context
        // The per-user request limit, counted once the token's subject is known.
        authentication = AccountAuthentication(context: context) { subject in
            try EndpointHandler.checkUserRateLimit(subject, context: context)
        }
        lifecycle = PasskeyLifecycle(context: context)
        enrolment = PasskeyEnrolment(context: context, verifier: CeremonyVerifier(context: context))
    }

    package static func register(in router: inout Router, context: ServerContext) {
        let endpoints = PasskeyLifecycleEndpoints(context: context)
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

    /// `GET /me/passkeys` → `{user: {id, user_handle, name, display_name}, passkeys: [...]}`.
    package func list(_ request: Request) async throws -> Response {
        let caller = try await authentication.signedIn(PresentedCredentials(request))
        return .json(try await lifecycle.list(caller))
    }

    /// `POST /me/passkeys/challenge` → `{authn_params_public_key, auth_session}`: creation options for the user.
    package func addChallenge(_ request: Request) async throws -> Response {
        let enrolling = try await authentication.enrolling(PresentedCredentials(request))
        return .json(try await enrolment.challenge(enrolling))
    }

    /// `POST /me/passkeys` `{auth_session, authn_response}` → 201 with the new passkey.
    package func add(_ request: Request) async throws -> Response {
        let enrolling = try await authentication.enrolling(PresentedCredentials(request))
        let parameters = try RequestParameters(request)
        let authSession = try parameters.string("auth_session", maxLength: 128)
        let authnResponse = try parameters.object("authn_response")
        let credential = try await enrolment.add(enrolling, authSession: authSession, authnResponse: authnResponse)
        return .json(
            PasskeyRepresentation.passkeyJSON(credential, names: AuthenticatorNames(context: context)), status: 201)
    }

    /// The credential id of the path; 404 when it is not base64url (it names no passkey).
    private func pathCredentialID(_ request: Request) throws -> [UInt8] {
        guard let text = request.pathParameters["credential_id"], !text.isEmpty,
            text.utf8.count <= Self.maximumCredentialIDLength, let id = Base64URL.decode(text)
        else { throw PasskeyLifecycleRefusal.passkeyNotFound }
        return id
    }

    /// `PATCH /me/passkeys/{id}` `{name}` → 200 with the passkey; `null` restores the provider's name. Another
    /// user's id is 404.
    package func rename(_ request: Request) async throws -> Response {
        let caller = try await authentication.signedIn(PresentedCredentials(request))
        let credentialID = try pathCredentialID(request)
        let body = try RequestParameters(request)
        let name = try body.optionalString("name", maxLength: 4 * PasskeyLifecycle.maximumNameLength)
        let renamed = try await lifecycle.rename(caller, credentialID: credentialID, name: name)
        return .json(PasskeyRepresentation.passkeyJSON(renamed, names: AuthenticatorNames(context: context)))
    }

    /// `DELETE /me/passkeys/{id}` → 204 (fresh login); 409 `last_passkey` for the user's only way in, 404 for
    /// another user's id.
    package func remove(_ request: Request) async throws -> Response {
        let caller = try await authentication.freshlySignedIn(
            PresentedCredentials(request), change: "Removing a passkey")
        let credentialID = try pathCredentialID(request)
        try await lifecycle.remove(caller, credentialID: credentialID)
        return .empty()
    }

    /// `POST /me/recovery-codes` → 201 `{recovery_codes: [10 codes], created_at, revoked_previous}` (fresh login),
    /// never cached.
    package func generateRecoveryCodes(_ request: Request) async throws -> Response {
        let caller = try await authentication.freshlySignedIn(
            PresentedCredentials(request), change: "Generating recovery codes")
        var response = Response.json(try await lifecycle.generateRecoveryCodes(caller), status: 201)
        // Shown once: no cache may keep them (RFC 9111 §5.2.2.5).
        response.headers.replace(name: "Cache-Control", value: "no-store")
        return response
    }

    /// `DELETE /me` → 204 (fresh login): the account and everything of it but its audit entries.
    package func deleteAccount(_ request: Request) async throws -> Response {
        let caller = try await authentication.freshlySignedIn(
            PresentedCredentials(request), change: "Deleting the account")
        try await lifecycle.deleteAccount(caller)
        return .empty()
    }
}
