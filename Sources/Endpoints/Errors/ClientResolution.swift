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
    ) throws -> ClientConfiguration {
        let client = try authenticated(parameters, request: request, context: context)
        if let grant, !client.allows(grant: grant) { throw OAuthError.grantNotAllowed(grant) }
        return client
    }

    /// The configured client of `request`, authenticated: a confidential client (one with `client_secret_sha256`)
    /// by one of its secrets, sent as `Authorization: Basic` or `client_secret` (RFC 6749 §2.3.1; §3.2.1: it MUST
    /// authenticate); a public client by its id alone, and a secret sent for it is refused rather than ignored (a
    /// client set up with a secret the server does not know is a mistake to surface).
    /// - Throws: as `client`, without the grant check.
    package static func authenticated(_ parameters: RequestParameters, request: Request, context: ServerContext)
        throws -> ClientConfiguration
    {
        let credentials = try ClientCredentials.of(parameters, request: request)
        guard let client = context.configuration.client(id: credentials.clientID) else {
            var error = OAuthError.unknownClient(credentials.clientID)
            error.basicChallenge = credentials.viaBasic
            throw error
        }
        switch (client.isConfidential, credentials.secret) {
        case (false, nil):
            return client
        case (false, _?):
            throw ClientCredentials.refusal(
                "client_secret_unexpected", reason: "client \(client.clientID) is public and has no secret",
                basic: credentials.viaBasic)
        case (true, nil):
            throw ClientCredentials.refusal(
                "client_authentication_missing", reason: "client \(client.clientID) is confidential and sent no secret",
                basic: credentials.viaBasic)
        case (true, let secret?):
            guard client.accepts(secret: secret) else {
                throw ClientCredentials.refusal(
                    "client_secret_mismatch", reason: "client \(client.clientID): the secret is not one of its own",
                    basic: credentials.viaBasic)
            }
            return client
        }
    }
}
