import HTTP
import JSON
import Service

/// How a refusal is answered on the wire: Auth0's `{"error", "error_description"}` body with the RFC 6749 §5.2
/// status, and the headers its kind calls for (`WWW-Authenticate`, `DPoP-Nonce`, `Retry-After`).
extension OAuthError {
    /// The wire answer.
    package var response: Response {
        if resourceScheme == .dpop { return dpopResourceResponse }
        var response: Response
        if let passkeyError {
            response = .json(
                .object([
                    JSONMember(key: "error", value: .string(kind.rawValue)),
                    JSONMember(key: "error_description", value: .string(clientDescription)),
                    JSONMember(key: "passkey_error", value: .string(passkeyError.rawValue)),
                ]), status: status)
        } else {
            response = Response.error(status: status, error: kind.rawValue, description: clientDescription)
        }
        if let dpopNonce {
            // RFC 9449 §8: the nonce the client must put in its next proof.
            response.headers.replace(name: "DPoP-Nonce", value: dpopNonce)
        }
        if kind == .invalidToken || kind == .insufficientUserAuthentication || kind == .insufficientScope {
            // RFC 6750 §3 (RFC 9470 §3 for a step-up): a refused bearer request carries the challenge.
            response.headers.replace(
                name: "WWW-Authenticate", value: BearerChallenge.header(for: self, realm: "passkeyd"))
        }
        if basicChallenge, kind == .invalidClient {
            // RFC 6749 §5.2: a client that tried `Authorization: Basic` is answered with that scheme's challenge.
            response.headers.replace(name: "WWW-Authenticate", value: #"Basic realm="passkeyd", charset="UTF-8""#)
        }
        if let retryAfter {
            // RFC 6585 §4 / RFC 9110 §10.2.3: how long to wait, in seconds.
            response.headers.replace(name: "Retry-After", value: String(retryAfter))
        }
        return response
    }

    /// RFC 9449 §7.1: a refused `DPoP` request to a protected resource is 401 with a `DPoP` challenge naming the
    /// error (none when no credentials came) and the accepted algorithms; other refusals keep their status (a 403
    /// `insufficient_scope` with its challenge, RFC 6750 §3.1).
    private var dpopResourceResponse: Response {
        let authentication: Set<Kind> = [.invalidToken, .invalidDPoPProof, .useDPoPNonce]
        let status = authentication.contains(kind) ? 401 : kind.status
        var response = Response.error(status: status, error: kind.rawValue, description: clientDescription)
        if authentication.contains(kind) || kind == .insufficientScope {
            response.headers.replace(name: "WWW-Authenticate", value: DPoPChallenge.header(for: self))
        }
        if let dpopNonce { response.headers.replace(name: "DPoP-Nonce", value: dpopNonce) }
        return response
    }
}
