import Configuration
import HTTP
import Service

/// `POST /passkey/register` and `POST /passkey/challenge`: start a sign-up or a login ceremony and hand the
/// client the WebAuthn options with an `auth_session` (Auth0 native passkeys API; `CeremonyChallenges`).
package struct PasskeyEndpoints: Sendable {
    package let context: ServerContext
    /// The clients' accepted origins, for the check of a browser's request.
    package let verifier: CeremonyVerifier
    package let challenges: CeremonyChallenges

    package static func register(in router: inout Router, context: ServerContext) {
        let endpoints = PasskeyEndpoints(
            context: context, verifier: CeremonyVerifier(context: context),
            challenges: CeremonyChallenges(context: context))
        router.add(
            .post, "/passkey/register",
            EndpointHandler.make(context, rateLimited: true) { request in
                try await endpoints.signupChallenge(request)
            })
        // CPU only (the session is sealed, nothing is stored): answered on the thread that read the request.
        router.addInline(
            .post, "/passkey/challenge",
            EndpointHandler.makeInline(context, rateLimited: true) { request in
                try endpoints.loginChallenge(request)
            })
    }

    /// The client of a ceremony request, after the checks both passkey endpoints make:
    /// - `organization` is refused (400 `invalid_request`, `refuseOrganization`);
    /// - the client must exist and have the webauthn grant; `unauthorized_client` is 400 here, as Auth0 documents
    ///   for these endpoints;
    /// - a request with an `Origin` header (a browser) must come from an origin the client accepts
    ///   (`CeremonyVerifier.checkRequestOrigin`): 403 `access_denied` otherwise.
    package func ceremonyClient(_ parameters: RequestParameters, request: Request) throws -> ClientConfiguration {
        try Self.refuseOrganization(parameters)
        let client: ClientConfiguration
        do {
            client = try ClientResolution.client(
                parameters, allowing: ClientConfiguration.webAuthnGrant, context: context)
        } catch var error as OAuthError where error.kind == .unauthorizedClient {
            error.statusOverride = 400
            throw error
        }
        try verifier.checkRequestOrigin(request.headers["Origin"], client: client)
        return client
    }

    /// Auth0 Organizations are not supported: a request naming one is refused rather than answered without the
    /// `org_id` claim that SDKs then require (and tokens without it would be refused by them anyway).
    /// - Throws: 400 `invalid_request`.
    package static func refuseOrganization(_ parameters: RequestParameters) throws {
        if try parameters.optionalString("organization", maxLength: 256) != nil {
            throw OAuthError.organizationsUnsupported()
        }
    }

    /// The realm named by `realm`, or the default realm (`CeremonyChallenges.realm(named:configuration:)`).
    /// - Throws: 400 `invalid_request` for an unknown realm.
    package static func realm(_ parameters: RequestParameters, context: ServerContext) throws -> RealmConfiguration {
        try CeremonyChallenges.realm(
            named: try parameters.optionalString("realm", maxLength: 128), configuration: context.configuration)
    }

    /// `POST /passkey/register` `{client_id, realm?, user_profile, user_metadata?}` →
    /// `{authn_params_public_key, auth_session}`.
    package func signupChallenge(_ request: Request) async throws -> Response {
        let parameters = try RequestParameters(request)
        let client = try ceremonyClient(parameters, request: request)
        let realm = try Self.realm(parameters, context: context)
        let profile = try parameters.object("user_profile")
        var signup = CeremonyChallenges.SignupParameters(client: client, realm: realm, userProfile: profile)
        signup.userMetadata = try parameters.optionalObject("user_metadata")
        return .json(try await challenges.signup(signup))
    }

    /// `POST /passkey/challenge` `{client_id, realm?}` → `{authn_params_public_key, auth_session}`.
    package func loginChallenge(_ request: Request) throws -> Response {
        let parameters = try RequestParameters(request)
        let client = try ceremonyClient(parameters, request: request)
        let realm = try Self.realm(parameters, context: context)
        return .json(try challenges.login(client: client, realm: realm))
    }
}
