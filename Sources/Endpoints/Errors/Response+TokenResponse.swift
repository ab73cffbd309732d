import HTTP
import Service

extension Response {
    /// A token answer (RFC 6749 §5.1): 200, its JSON, `Cache-Control: no-store` and `Pragma: no-cache`.
    package static func token(_ answer: TokenResponse) -> Response {
        var response = Response.json(answer.json)
        // RFC 6749 §5.1: token responses carry Cache-Control: no-store and Pragma: no-cache.
        response.headers.replace(name: "Cache-Control", value: "no-store")
        response.headers.replace(name: "Pragma", value: "no-cache")
        return response
    }
}
