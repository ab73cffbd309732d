import JSON
import Storage

/// OIDC Core §5.3 UserInfo: the claims of an access token's subject that its scope releases.
package struct UserInfo: Sendable {
    package let context: ServerContext

    package init(context: ServerContext) {
        self.context = context
    }

    /// The claims of the subject of the token `credentials` present, as a JSON object.
    /// - Throws: 401 `invalid_token` for a missing or bad token (the endpoint adds `WWW-Authenticate`, RFC 6750 §3),
    ///   or one whose user is gone.
    package func claims(_ credentials: PresentedCredentials) async throws -> JSONValue {
        let subject = try await context.tokens.authenticate(credentials)
        guard let user = try await context.store.read({ try $0.user(id: subject.sub) }) else {
            throw OAuthError(.invalidToken, "The access token is invalid.", logCode: "token_user_gone")
        }
        // OIDC Core §5.3.2: sub always; the rest per §5.4 scope (`UserClaims`, the ID token's rule too).
        let released = UserClaims(
            user: user, scope: subject.scope, metadataClaim: context.configuration.tokens.userMetadataClaim)
        return .object([JSONMember(key: "sub", value: .string(user.id))] + released.members)
    }
}
