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
        // CPU only (the session is sealed, nothing is stored): answered on the thread that read the request, its
        // body read once, but for a request naming an organization, which is read from the store first (in a task).
        router.add(
            .post, "/passkey/challenge",
            inlineWhenPossible: EndpointHandler.makeInlineAttempt(
                context, rateLimited: true, prepare: Self.inlineLoginParameters
            ) { request, parameters in
                try endpoints.loginChallenge(try parameters.get(), request: request)
            },
            otherwise: EndpointHandler.make(context, rateLimited: true) { request in
                try await endpoints.organizationLoginChallenge(request)
            })
    }

    /// The client of a ceremony request, after the checks both passkey endpoints make:
    /// - the client must exist and have the webauthn grant; `unauthorized_client` is 400 here, as Auth0 documents
    ///   for these endpoints;
    /// - a request with an `Origin` header (a browser) must come from an origin the client accepts
    ///   (`CeremonyVerifier.checkRequestOrigin`): 403 `access_denied` otherwise.
    /// `organization` is the caller's, judged against this client (`organization(_:client:)`).
    package func ceremonyClient(_ parameters: RequestParameters, request: Request) async throws
        -> ClientConfiguration
    {
        let resolved: Result<ClientConfiguration, any Error>
        do {
            resolved = .success(
                try await ClientResolution.client(
                    parameters, request: request, allowing: ClientConfiguration.webAuthnGrant, context: context))
        } catch {
            resolved = .failure(error)
        }
        return try ceremonyChecks(resolved, request: request)
    }

    /// `ceremonyClient` on the inline path (no `client_assertion`: `inlineLoginParameters` sends one to the task).
    package func inlineCeremonyClient(_ parameters: RequestParameters, request: Request) throws -> ClientConfiguration {
        try ceremonyChecks(
            Result {
                try ClientResolution.inlineClient(
                    parameters, request: request, allowing: ClientConfiguration.webAuthnGrant, context: context)
            }, request: request)
    }

    /// The checks of `ceremonyClient` after the client's resolution.
    private func ceremonyChecks(_ resolved: Result<ClientConfiguration, any Error>, request: Request) throws
        -> ClientConfiguration
    {
        let client: ClientConfiguration
        do {
            client = try resolved.get()
        } catch var error as OAuthError where error.kind == .unauthorizedClient {
            error.statusOverride = 400
            throw error
        }
        try verifier.checkRequestOrigin(request.headers["Origin"], client: client)
        return client
    }

    /// `organization` (an Auth0 organization's id, or its name when `allow_organization_name_in_authentication_api`
    /// is on), judged against `client`'s `organization_usage` (`OrganizationRequest.checked`); `nil` for none.
    /// - Throws: 400 `invalid_request` with Auth0's description.
    package func organization(_ parameters: RequestParameters, client: ClientConfiguration) throws
        -> OrganizationRequest?
    {
        try OrganizationRequest.checked(
            try parameters.optionalString("organization", maxLength: 256), client: client,
            configuration: context.configuration)
    }

    /// The parameters of a `/passkey/challenge` request answered inline, read once (a body that does not parse
    /// included: it is refused inline), or `nil` for a request naming an `organization`, which is read from the
    /// store first, or carrying a `client_assertion`, whose `jti` is spent in the store (both in a task). An
    /// `organization` that is no string is refused inline.
    static func inlineLoginParameters(_ request: Request) -> Result<RequestParameters, any Error>? {
        let parameters = Result { () throws -> RequestParameters in try RequestParameters(request) }
        if case .success(let parsed) = parameters, ClientCredentials.carriesAssertion(parsed) { return nil }
        // `try?` flattens: nil for no `organization`, and for one that is no string.
        if case .success(let parsed) = parameters,
            (try? parsed.optionalString("organization", maxLength: 256)) != nil
        {
            return nil
        }
        return parameters
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
        let client = try await ceremonyClient(parameters, request: request)
        let realm = try Self.realm(parameters, context: context)
        let organization = try self.organization(parameters, client: client)
        let profile = try parameters.object("user_profile")
        var signup = CeremonyChallenges.SignupParameters(
            client: client, realm: realm, userProfile: profile, organization: organization)
        signup.userMetadata = try parameters.optionalObject("user_metadata")
        return .json(try await challenges.signup(signup))
    }

    /// `POST /passkey/challenge` `{client_id, realm?, organization?}` → `{authn_params_public_key, auth_session}`,
    /// for a request naming no organization (none is read from the store).
    package func loginChallenge(_ parameters: RequestParameters, request: Request) throws -> Response {
        let client = try inlineCeremonyClient(parameters, request: request)
        let realm = try Self.realm(parameters, context: context)
        // A client that requires one refuses a request without it.
        _ = try organization(parameters, client: client)
        return .json(try challenges.login(client: client, realm: realm))
    }

    /// `POST /passkey/challenge` naming an `organization`: the same, with the organization read from the store
    /// first (an unknown one is refused) and sealed into the session.
    package func organizationLoginChallenge(_ request: Request) async throws -> Response {
        let parameters = try RequestParameters(request)
        let client = try await ceremonyClient(parameters, request: request)
        let realm = try Self.realm(parameters, context: context)
        guard let asked = try organization(parameters, client: client) else {
            return .json(try challenges.login(client: client, realm: realm))
        }
        let organization = try await challenges.organization(asked)
        return .json(try challenges.login(client: client, realm: realm, organization: organization))
    }
}
