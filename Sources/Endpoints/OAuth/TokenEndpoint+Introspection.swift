import Configuration
import HTTP
import JSON
import Service

extension TokenEndpoint {
    /// `POST /oauth/introspect` (RFC 7662 §2) with `token` and an optional `token_type_hint`, from a confidential
    /// client authenticated by its secret (`ClientResolution`; §2.1: a public client, which has no secret to prove
    /// who asks, is refused, so no one can scan tokens): `TokenIntrospection`'s answer, never cached.
    package func introspect(_ request: Request) async throws -> Response {
        let parameters = try RequestParameters(request)
        let caller = try await ClientResolution.client(parameters, request: request, allowing: nil, context: context)
        guard caller.isConfidential else {
            throw OAuthError(
                .invalidClient, "Token introspection needs a confidential client.", logCode: "introspection_public",
                reason: "client \(caller.clientID) has no secret")
        }
        let token = try parameters.string("token", maxLength: 16_384)
        _ = try parameters.optionalString("token_type_hint", maxLength: 64)
        var response = Response.json(try await TokenIntrospection(context: context).introspect(token, caller: caller))
        response.headers.replace(name: "Cache-Control", value: "no-store")
        return response
    }
}
