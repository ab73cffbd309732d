/// The refusals of `grant_type=authorization_code` (RFC 6749 §5.2 `invalid_grant`: "invalid, expired, revoked, does
/// not match the redirection URI used in the authorization request, or was issued to another client"): one
/// description for all, so the answer never says which check failed; the log code does.
extension OAuthError {
    /// The code is unknown, expired, redeemed, another client's, or its redirect URI or PKCE verifier do not match.
    package static func invalidCode(_ logCode: String, reason: String = "") -> OAuthError {
        OAuthError(.invalidGrant, "Invalid authorization code.", logCode: logCode, reason: reason)
    }
}
