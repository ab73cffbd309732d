import HTTP
import Storage

extension TokenEndpoint {
    /// `GET /userinfo` (OIDC Core §5.3): the claims of the token's subject allowed by its scope. A missing or
    /// bad token is 401 with `WWW-Authenticate` (RFC 6750 §3).
    func userinfo(_ request: Request) async throws -> Response {
        let subject = try await context.tokens.authenticate(request)
        guard let user = try await context.store.read({ try $0.user(id: subject.sub) }) else {
            throw OAuthError(.invalidToken, "The access token is invalid.", logCode: "token_user_gone")
        }
        let scope = Set(subject.scope)
        // OIDC Core §5.3.2: sub always; the rest per §5.4 scope.
        var members = [JSONMember(key: "sub", value: .string(user.id))]
        if scope.contains("profile") {
            if let name = user.name ?? user.username { members.append(JSONMember(key: "name", value: .string(name))) }
            if let username = user.username {
                members.append(JSONMember(key: "preferred_username", value: .string(username)))
            }
        }
        if scope.contains("email"), let email = user.email {
            members.append(JSONMember(key: "email", value: .string(email)))
            members.append(JSONMember(key: "email_verified", value: .bool(false)))
        }
        if scope.contains("phone"), let phone = user.phoneNumber {
            members.append(JSONMember(key: "phone_number", value: .string(phone)))
            members.append(JSONMember(key: "phone_number_verified", value: .bool(false)))
        }
        return .json(.object(members))
    }
}
