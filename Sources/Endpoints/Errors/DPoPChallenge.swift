import Service
import Tokens

/// RFC 9449 §7.1: the `WWW-Authenticate: DPoP` challenge of a refused request to a protected resource.
package enum DPoPChallenge {
    /// The header value for `error`: `DPoP algs="ES256 EdDSA"`, plus `error` and `error_description` unless the
    /// request carried no credentials (RFC 6750 §3.1, which §7.1 follows).
    package static func header(for error: OAuthError) -> String {
        var value = "DPoP algs=\"\(DPoPProofVerifier.algorithms.joined(separator: " "))\""
        if !error.credentialsMissing {
            value += ", error=\"\(error.kind.rawValue)\", error_description=\"\(error.clientDescription)\""
        }
        if let scope = error.requiredScope {
            // RFC 6750 §3 (RFC 9449 §7.1 reuses its attributes): the scope the request needs.
            value += ", scope=\"\(scope)\""
        }
        return value
    }
}
