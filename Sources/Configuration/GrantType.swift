/// The grant types of `POST /oauth/token`, one home for their spelling and their list: a client's `grant_types` may
/// name only these (`ServerConfiguration.readClient`), discovery publishes them in this order (RFC 8414 §2
/// `grant_types_supported`), and the token endpoint dispatches on them (RFC 6749 §5.2: any other is
/// `unsupported_grant_type`).
package enum GrantType: String, Sendable, CaseIterable {
    /// Auth0's native passkey flow (`/passkey/register` or `/passkey/challenge`, then the WebAuthn response).
    case webAuthn = "urn:okta:params:oauth:grant-type:webauthn"
    /// RFC 6749 §6: a refresh token for new tokens, rotated on every use.
    case refreshToken = "refresh_token"
    /// The SRP-6a password fallback (`/srp/challenge`, then M1).
    case srp = "urn:passkeyd:params:oauth:grant-type:srp6a"
    /// Account recovery with a recovery code (`/recovery/challenge`, then the code).
    case recoveryCode = "urn:passkeyd:params:oauth:grant-type:recovery-code"
    /// RFC 6749 §4.1.3 with PKCE (RFC 7636 §4.5): the code the hosted login issued (`GET /authorize`) for tokens.
    case authorizationCode = "authorization_code"
    /// RFC 6749 §4.4: a confidential client's own access token for an API (Auth0's machine-to-machine
    /// applications), by its secret alone; no user, no refresh or ID token.
    case clientCredentials = "client_credentials"
}
