import Configuration
import HTTP
import JSON
import Service
import Storage

/// The user's passkeys in the shape of Auth0's My Account API (`/me/v1/authentication-methods…`), which Auth0.swift,
/// Auth0.Android and auth0/myaccount-js call: enrol (a challenge, then its verification), list, read one, rename,
/// remove.
/// The same flows as `/me/passkeys` (`PasskeyEnrolment`, `PasskeyLifecycle`) behind the same guards (the account
/// audience, fresh login, the per-user rate limit, the audit events); the differences are the representation
/// (`AuthenticationMethodRepresentation`), Auth0's scopes (`AccountAPIScope`, 403 `insufficient_scope` without them)
/// and refusals as problem details (`OAuthError.problemResponse`). The recovery token is not accepted here.
package struct MyAccountEndpoints: Sendable {
    /// `/me/passkeys`'s endpoints, whose authentication and flows these share.
    package let account: PasskeyLifecycleEndpoints

    /// The collection's path (Auth0.swift: `<domain>/me/v1` + `authentication-methods`).
    package static let collectionPath = "/me/v1/authentication-methods"

    package static func register(in router: inout Router, context: ServerContext) {
        let endpoints = MyAccountEndpoints(account: PasskeyLifecycleEndpoints(context: context))
        func handler(_ body: @escaping @Sendable (Request) async throws -> Response) -> Router.Handler {
            EndpointHandler.makeProblem(context, body)
        }
        let item = collectionPath + "/{authentication_method_id}"
        router.add(.post, collectionPath, handler { try await endpoints.startEnrolment($0) })
        router.add(.post, item + "/verify", handler { try await endpoints.verifyEnrolment($0) })
        router.add(.get, collectionPath, handler { try await endpoints.list($0) })
        router.add(.get, item, handler { try await endpoints.method($0) })
        router.add(.patch, item, handler { try await endpoints.update($0) })
        router.add(.delete, item, handler { try await endpoints.remove($0) })
    }

    /// `POST /me/v1/authentication-methods` `{type: "passkey", connection?, identity_user_id?}` (fresh login,
    /// `create:me:authentication_methods`) → 202, `Location: …/authentication-methods/passkey%7Cnew`,
    /// `{auth_session, authn_params_public_key}` (`PasskeyEnrolment.challenge`, as `/me/passkeys/challenge`).
    package func startEnrolment(_ request: Request) async throws -> Response {
        let enrolling = try await account.authentication.enrolling(
            PresentedCredentials(request), requiring: .createAuthenticationMethods)
        let parameters = try RequestParameters(request)
        guard try parameters.string("type", maxLength: 64) == AuthenticationMethodRepresentation.passkeyType else {
            throw OAuthError.invalidParameter("type", reason: "only passkey can be enrolled")
        }
        let user = enrolling.caller.user
        // Auth0: the database connection and identity to enrol for; here the user's realm and the user, the only
        // ones they have.
        if let connection = try parameters.optionalString("connection", maxLength: 128), connection != user.realm {
            throw OAuthError.invalidParameter("connection", reason: "is not the user's realm")
        }
        if let identity = try parameters.optionalString("identity_user_id", maxLength: 255), identity != user.id {
            throw OAuthError.invalidParameter("identity_user_id", reason: "is not the user's id")
        }
        var response = Response.json(try await account.enrolment.challenge(enrolling), status: 202)
        // The SDKs take the method id from the last path segment and percent-decode it; `|` is not a path
        // character (RFC 3986 §3.3), so it is sent encoded.
        let encodedID = AuthenticationMethodRepresentation.enrolmentID.replacingOccurrences(of: "|", with: "%7C")
        response.headers.replace(
            name: "Location", value: account.context.configuration.url(of: Self.collectionPath + "/" + encodedID))
        return response
    }

    /// `POST /me/v1/authentication-methods/passkey|new/verify` `{auth_session, authn_response}` (fresh login,
    /// `create:me:authentication_methods`) → 200 with the new passkey (`PasskeyEnrolment.add`).
    package func verifyEnrolment(_ request: Request) async throws -> Response {
        let enrolling = try await account.authentication.enrolling(
            PresentedCredentials(request), requiring: .createAuthenticationMethods)
        guard request.pathParameters["authentication_method_id"] == AuthenticationMethodRepresentation.enrolmentID
        else { throw PasskeyLifecycleRefusal.passkeyNotFound }
        let parameters = try RequestParameters(request)
        let authSession = try parameters.string("auth_session", maxLength: 128)
        let authnResponse = try parameters.object("authn_response")
        let credential = try await account.enrolment.add(
            enrolling, authSession: authSession, authnResponse: authnResponse)
        return .json(represent(credential, enrolling.caller))
    }

    /// `GET /me/v1/authentication-methods[?type=passkey]` (`read:me:authentication_methods`) →
    /// `{authentication_methods: [...]}`; a `type` other than `passkey` lists nothing (passkeys are the only methods).
    package func list(_ request: Request) async throws -> Response {
        let caller = try await account.authentication.signedIn(
            PresentedCredentials(request), requiring: .readAuthenticationMethods)
        if let type = request.query["type"], type != AuthenticationMethodRepresentation.passkeyType {
            return .json(.object([JSONMember(key: "authentication_methods", value: .array([]))]))
        }
        let credentials = try await account.lifecycle.passkeys(caller)
        return .json(
            AuthenticationMethodRepresentation.listJSON(
                credentials, user: caller.user, relyingPartyID: account.context.configuration.relyingParty.id,
                names: AuthenticatorNames(context: account.context)))
    }

    /// `GET /me/v1/authentication-methods/{id}` (`read:me:authentication_methods`) → the passkey; 404 for an id that
    /// is not one of the user's.
    package func method(_ request: Request) async throws -> Response {
        let caller = try await account.authentication.signedIn(
            PresentedCredentials(request), requiring: .readAuthenticationMethods)
        let credential = try await account.lifecycle.passkey(caller, credentialID: try pathCredentialID(request))
        return .json(represent(credential, caller))
    }

    /// `PATCH /me/v1/authentication-methods/{id}` `{name}` (`update:me:authentication_methods`) → 200 with the passkey
    /// (`PasskeyLifecycle.rename`, as `PATCH /me/passkeys/{id}`: `null` restores the provider's name; 404 for an id
    /// that is not the user's). Auth0's other member, `preferred_authentication_method`, is for phone methods: 400.
    package func update(_ request: Request) async throws -> Response {
        let caller = try await account.authentication.signedIn(
            PresentedCredentials(request), requiring: .updateAuthenticationMethods)
        let credentialID = try pathCredentialID(request)
        let body = try RequestParameters(request)
        if try body.optionalString("preferred_authentication_method", maxLength: 16) != nil {
            throw OAuthError.invalidParameter("preferred_authentication_method", reason: "is for phone methods only")
        }
        let name = try body.optionalString("name", maxLength: 4 * PasskeyLifecycle.maximumNameLength)
        let renamed = try await account.lifecycle.rename(caller, credentialID: credentialID, name: name)
        return .json(represent(renamed, caller))
    }

    /// `DELETE /me/v1/authentication-methods/{id}` (fresh login, `delete:me:authentication_methods`) → 204
    /// (`PasskeyLifecycle.remove`: 409 `last_passkey` for the only way in, 404 for an id that is not the user's).
    package func remove(_ request: Request) async throws -> Response {
        let caller = try await account.authentication.freshlySignedIn(
            PresentedCredentials(request), change: "Removing a passkey", requiring: .deleteAuthenticationMethods)
        try await account.lifecycle.remove(caller, credentialID: try pathCredentialID(request))
        return .empty()
    }

    /// The credential id the path's method id names; 404 when it names no passkey.
    private func pathCredentialID(_ request: Request) throws -> [UInt8] {
        guard let methodID = request.pathParameters["authentication_method_id"],
            let id = AuthenticationMethodRepresentation.credentialID(
                methodID: methodID, maximumLength: PasskeyLifecycleEndpoints.maximumCredentialIDLength)
        else { throw PasskeyLifecycleRefusal.passkeyNotFound }
        return id
    }

    private func represent(_ credential: Credential, _ caller: AccountCaller) -> JSONValue {
        AuthenticationMethodRepresentation.passkeyJSON(
            credential, user: caller.user, relyingPartyID: account.context.configuration.relyingParty.id,
            names: AuthenticatorNames(context: account.context))
    }
}
