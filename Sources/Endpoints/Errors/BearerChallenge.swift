import Service

/// RFC 6750 §3: the `WWW-Authenticate` challenge of a refused bearer request.
package enum BearerChallenge {
    /// The header value for `error`.
    package static func header(for error: OAuthError, realm: String) -> String {
        var value = "Bearer realm=\"\(realm)\""
        // RFC 6750 §3.1: a request without credentials gets no `error` attribute.
        if !error.credentialsMissing {
            value += ", error=\"\(error.kind.rawValue)\", error_description=\"\(error.clientDescription)\""
        }
        if let scope = error.requiredScope {
            // RFC 6750 §3: the scope the request needs, with `insufficient_scope`.
            value += ", scope=\"\(scope)\""
        }
        if let maxAge = error.maxAge {
            // RFC 9470 §3: the longest acceptable time since the user's last authentication.
            value += ", max_age=\"\(maxAge)\""
        }
        return value
    }
}
