/// The scopes the account API (`<issuer>me/`) defines: Auth0's My Account API scopes for the user's own
/// authentication methods, which `/me/v1/authentication-methods…` requires one by one (docs/api.md). A login that
/// asks for the account API may be granted them without a client grant, as the API itself is granted to every client.
public enum AccountAPIScope: String, CaseIterable, Sendable {
    /// Start and verify the enrolment of a passkey (`POST /me/v1/authentication-methods`, `…/{id}/verify`).
    case createAuthenticationMethods = "create:me:authentication_methods"
    /// List the user's passkeys and read one (`GET /me/v1/authentication-methods`, `…/{id}`).
    case readAuthenticationMethods = "read:me:authentication_methods"
    /// Rename one of the user's passkeys (`PATCH /me/v1/authentication-methods/{id}`).
    case updateAuthenticationMethods = "update:me:authentication_methods"
    /// Remove one of the user's passkeys (`DELETE /me/v1/authentication-methods/{id}`).
    case deleteAuthenticationMethods = "delete:me:authentication_methods"

    /// The scope as the account API defines it, with its description.
    var apiScope: APIConfiguration.Scope {
        switch self {
        case .createAuthenticationMethods:
            APIConfiguration.Scope(value: rawValue, description: "Add passkeys to your account")
        case .readAuthenticationMethods:
            APIConfiguration.Scope(value: rawValue, description: "See the passkeys of your account")
        case .updateAuthenticationMethods:
            APIConfiguration.Scope(value: rawValue, description: "Rename the passkeys of your account")
        case .deleteAuthenticationMethods:
            APIConfiguration.Scope(value: rawValue, description: "Remove passkeys from your account")
        }
    }
}
