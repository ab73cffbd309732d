import Service

/// RFC 6750 §3: the `WWW-Authenticate` challenge of a refused bearer request.
package enum BearerChallenge {
    /// The log code of a request that carried no token (RFC 6750 §3.1: then no `error` attribute).
    package static let missingToken = PresentedCredentials.missingTokenLogCode

    /// The header value for `error`.
    package static func header(for error: OAuthError, realm: String) -> String {
        var value = "Bearer realm=\"\(realm)\""
        if error.logCode != missingToken {
            value += ", error=\"\(error.kind.rawValue)\", error_description=\"\(error.clientDescription)\""
        }
        if let maxAge = error.maxAge {
            // RFC 9470 §3: the longest acceptable time since the user's last authentication.
            value += ", max_age=\"\(maxAge)\""
        }
        return value
    }
}
