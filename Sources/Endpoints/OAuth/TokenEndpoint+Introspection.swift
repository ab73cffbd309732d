import Configuration
import HTTP
import JSON
import Service
import Tokens

extension TokenEndpoint {
    /// `POST /oauth/introspect` (RFC 7662 §2) with `token` and an optional `token_type_hint`, from a confidential
    /// client authenticated by its secret (`ClientResolution`; §2.1: a public client, which has no secret to prove
    /// who asks, is refused, so no one can scan tokens): `TokenIntrospection`'s answer, never cached. As JSON, or as
    /// a signed JWT (RFC 9701 §4) when the request's `Accept` names `application/token-introspection+jwt` with a
    /// weight at least that of `application/json`; errors stay JSON (RFC 6749 §5.2).
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
        let introspection = TokenIntrospection(context: context)
        let answer = try await introspection.introspect(token, caller: caller)
        var response: Response
        if AcceptedMediaTypes(request.headers).asksFor(
            IntrospectionResponseClaims.mediaType, over: "application/json")
        {
            response = Response.text(
                try await introspection.signedAnswer(answer, caller: caller),
                contentType: IntrospectionResponseClaims.mediaType)
        } else {
            response = Response.json(answer)
        }
        // RFC 7662 §2.2 / RFC 9701 §5: the answer is about this moment only.
        response.headers.replace(name: "Cache-Control", value: "no-store")
        return response
    }
}
