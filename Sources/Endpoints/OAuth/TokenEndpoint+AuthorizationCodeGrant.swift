import Configuration
import HTTP
import Service

extension TokenEndpoint {
    /// `grant_type=authorization_code` (RFC 6749 §4.1.3, RFC 7636 §4.5) with `code`, `redirect_uri`,
    /// `code_verifier` and `client_id`: redeems a code of the hosted login (`AuthorizationCodeGrant`).
    package func authorizationCodeGrant(_ parameters: RequestParameters, client: ClientConfiguration, dpop: String?)
        async throws -> Response
    {
        // Bounds only: a longer code or verifier is judged by the grant (an unknown code, a malformed verifier).
        let code = try parameters.string("code", maxLength: 256)
        let redirectURI = try parameters.string("redirect_uri", maxLength: 2_048)
        let codeVerifier = try parameters.string("code_verifier", maxLength: 256)
        return .token(
            try await authorizationCode.redeem(
                AuthorizationCodeGrant.Parameters(
                    code: code, redirectURI: redirectURI, codeVerifier: codeVerifier, client: client,
                    dpopThumbprint: dpop)))
    }
}
