import Configuration
import HTTP
import Service

/// Finds the client a request names, authenticates it, and checks it may use a grant (RFC 6749 §2.3, §3.2.1, §5.2):
/// the one place every endpoint that identifies a client calls (the token endpoint's grants, revocation, pushed
/// authorization requests, the passkey, recovery and SRP challenges).
package enum ClientResolution {
    /// The configured client of `request` (body `parameters`), authenticated, allowed to use `grant`.
    /// - Throws: 400 `invalid_request` without `client_id`; 401 `invalid_client` for an unknown one or credentials
    ///   that do not authenticate it (`authenticated`); 403 `unauthorized_client` when the grant is not enabled
    ///   for it.
    package static func client(
        _ parameters: RequestParameters, request: Request, allowing grant: String?, context: ServerContext
    ) async throws -> ClientConfiguration {
        let client = try await authenticated(parameters, request: request, context: context)
        if let grant, !client.allows(grant: grant) { throw OAuthError.grantNotAllowed(grant) }
        return client
    }

    /// The configured client of `request`, authenticated: a confidential client by one of its secrets
    /// (`client_secret_sha256`), sent as `Authorization: Basic` or `client_secret` (RFC 6749 §2.3.1; §3.2.1: it MUST
    /// authenticate), or by an assertion signed with one of its keys (`jwks`, RFC 7523 §2.2), whose `jti` is spent in
    /// the store; a public client by its id alone, and a secret sent for it is refused rather than ignored (a client
    /// set up with a secret the server does not know is a mistake to surface).
    /// - Throws: as `client`, without the grant check.
    package static func authenticated(_ parameters: RequestParameters, request: Request, context: ServerContext)
        async throws -> ClientConfiguration
    {
        let (client, credentials) = try resolved(parameters, request: request, context: context)
        if let assertion = credentials.assertion {
            try await ClientAssertionCheck.verify(assertion, client: client, request: request, context: context)
        }
        return client
    }

    /// `client` for a request answered inline (run to completion, no suspension), which carries no
    /// `client_assertion`: an assertion's `jti` is spent in the store, so the inline path's `prepare` sends such a
    /// request to its task, where `client` judges it.
    /// - Throws: as `client`; a server error if an assertion reached it anyway (a routing bug, never the client's).
    package static func inlineClient(
        _ parameters: RequestParameters, request: Request, allowing grant: String?, context: ServerContext
    ) throws -> ClientConfiguration {
        let (client, credentials) = try resolved(parameters, request: request, context: context)
        guard credentials.assertion == nil else { throw OAuthError.bug("a client assertion reached an inline route") }
        if let grant, !client.allows(grant: grant) { throw OAuthError.grantNotAllowed(grant) }
        return client
    }

    /// The client `request` names, its secret judged (or its absence, for a public client); an assertion is returned
    /// in the credentials for the caller to verify.
    private static func resolved(_ parameters: RequestParameters, request: Request, context: ServerContext) throws
        -> (ClientConfiguration, ClientCredentials)
    {
        let credentials = try ClientCredentials.of(parameters, request: request)
        guard let client = context.configuration.client(id: credentials.clientID) else {
            var error = OAuthError.unknownClient(credentials.clientID)
            error.basicChallenge = credentials.viaBasic
            throw error
        }
        if credentials.assertion != nil { return (client, credentials) }
        switch (client.isConfidential, credentials.secret) {
        case (false, nil):
            return (client, credentials)
        case (false, _?):
            throw ClientCredentials.refusal(
                "client_secret_unexpected", reason: "client \(client.clientID) is public and has no secret",
                basic: credentials.viaBasic)
        case (true, nil):
            throw ClientCredentials.refusal(
                "client_authentication_missing",
                reason: "client \(client.clientID) is confidential and sent no secret or assertion",
                basic: credentials.viaBasic)
        case (true, let secret?):
            guard client.accepts(secret: secret) else {
                throw ClientCredentials.refusal(
                    "client_secret_mismatch", reason: "client \(client.clientID): the secret is not one of its own",
                    basic: credentials.viaBasic)
            }
            return (client, credentials)
        }
    }
}
