/// The JWS algorithms passkeyd signs tokens with: access tokens (`tokens.access_token_signing_alg`, an API's own
/// `apis[].signing_alg`) and a client's ID tokens (`clients[].id_token_signed_response_alg`).
public enum TokenSigningAlgorithm: String, Sendable, Equatable, CaseIterable, SettingChoice {
    /// ECDSA P-256 with SHA-256 (RFC 7518 §3.4): on request, per API or for the whole server.
    case es256 = "ES256"
    /// RSASSA-PKCS1-v1_5 with SHA-256 (RFC 7518 §3.3): access tokens by default, as Auth0's are, and ID tokens by
    /// default (OIDC Core §15.1, OIDC Dynamic Client Registration §2 `id_token_signed_response_alg`).
    case rs256 = "RS256"
}
