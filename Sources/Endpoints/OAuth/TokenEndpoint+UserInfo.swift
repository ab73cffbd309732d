import HTTP
import JSON
import Service
import Storage

extension TokenEndpoint {
    /// `GET /userinfo` (OIDC Core §5.3): the claims of the token's subject allowed by its scope. A missing or
    /// bad token is 401 with `WWW-Authenticate` (RFC 6750 §3).
    package func userinfo(_ request: Request) async throws -> Response {
        let subject = try await context.tokens.authenticate(request)
        guard let user = try await context.store.read({ try $0.user(id: subject.sub) }) else {
            throw OAuthError(.invalidToken, "The access token is invalid.", logCode: "token_user_gone")
        }
        // OIDC Core §5.3.2: sub always; the rest per §5.4 scope (`UserClaims`, the ID token's rule too).
        let released = UserClaims(
            user: user, scope: subject.scope, metadataClaim: context.configuration.tokens.userMetadataClaim)
        return .json(.object([JSONMember(key: "sub", value: .string(user.id))] + released.members))
    }
}
