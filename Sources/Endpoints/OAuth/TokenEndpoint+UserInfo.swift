import HTTP
import Service

extension TokenEndpoint {
    /// `GET /userinfo` (OIDC Core §5.3): the claims of the token's subject allowed by its scope (`UserInfo`). A
    /// missing or bad token is 401 with `WWW-Authenticate` (RFC 6750 §3).
    package func userinfo(_ request: Request) async throws -> Response {
        .json(try await UserInfo(context: context).claims(PresentedCredentials(request)))
    }
}
