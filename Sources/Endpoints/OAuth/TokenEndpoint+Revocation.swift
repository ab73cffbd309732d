import HTTP
import JSON
import Service

extension TokenEndpoint {
    /// `POST /oauth/revoke` (RFC 7009) with `client_id`, `token` and optional `token_type_hint`: 200 `{}` whatever
    /// the token was (§2.2; `TokenRevocation`).
    package func revoke(_ request: Request) async throws -> Response {
        let parameters = try RequestParameters(request)
        let client = try await ClientResolution.client(parameters, request: request, allowing: nil, context: context)
        let token = try parameters.string("token", maxLength: 16_384)
        _ = try parameters.optionalString("token_type_hint", maxLength: 64)
        try await TokenRevocation(context: context).revoke(token, client: client)
        return .json(.object([]))
    }
}
