import Configuration
import HTTP
import Service
import Tokens

extension TokenEndpoint {
    /// `grant_type=refresh_token` (RFC 6749 §6) with `refresh_token`, optional `scope` and `audience`: rotation with
    /// reuse detection (`RefreshGrant`). The parameters are checked here, before the store is read, so that a
    /// malformed one changes nothing (`invalid_request`).
    package func refreshTokenGrant(_ parameters: RequestParameters, client: ClientConfiguration, dpop: String?)
        async throws
        -> Response
    {
        let presented = try Tokens.RefreshToken(presented: try parameters.string("refresh_token", maxLength: 128))
        let scope = try presentedScope(parameters)
        let audience = try requestedAudience(parameters)
        return .token(
            try await refresh.rotate(
                RefreshGrant.Parameters(
                    token: presented, scope: scope, audience: audience, client: client, dpopThumbprint: dpop)))
    }
}
