/// RFC 6750 §3: the `WWW-Authenticate` challenge of a refused bearer request.
enum BearerChallenge {
    /// The log code of a request that carried no token (RFC 6750 §3.1: then no `error` attribute).
    static let missingToken = "missing_token"

    /// The header value for `error`.
    static func header(for error: OAuthError, realm: String) -> String {
        var value = "Bearer realm=\"\(realm)\""
        if error.logCode != missingToken {
            value += ", error=\"invalid_token\", error_description=\"\(error.clientDescription)\""
        }
        return value
    }
}
