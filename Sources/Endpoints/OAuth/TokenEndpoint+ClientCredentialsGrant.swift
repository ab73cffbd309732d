import Configuration
import HTTP
import Service

extension TokenEndpoint {
    /// `grant_type=client_credentials` (RFC 6749 §4.4.2) with `audience` (Auth0's; else `default_audience`) and an
    /// optional `scope`, from a client `ClientResolution` authenticated by its secret (`ClientCredentialsGrant`).
    package func clientCredentialsGrant(_ parameters: RequestParameters, client: ClientConfiguration, dpop: String?)
        async throws -> Response
    {
        .token(
            try await ClientCredentialsGrant(context: context).issue(
                ClientCredentialsGrant.Parameters(
                    client: client, audience: try parameters.optionalString("audience", maxLength: 512),
                    scope: try parameters.optionalString("scope", maxLength: 1024), dpopThumbprint: dpop)))
    }
}
