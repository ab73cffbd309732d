import HTTP
import JSON
import Service

/// How a refusal is answered by the routes in the shape of Auth0's My Account API (`/me/v1/…`): RFC 9457 (formerly
/// RFC 7807) problem details, `application/problem+json` with `type`, `status`, `title`, `detail` and, for a
/// parameter that is missing or malformed, `validation_errors` — the members Auth0.swift's `MyAccountError`,
/// Auth0.Android's `MyAccountException` and myaccount-js's `ErrorResponse` read.
extension OAuthError {
    /// The media type of a problem details document (RFC 9457 §3).
    package static let problemMediaType = "application/problem+json"

    /// The wire answer as problem details: the status and headers (`WWW-Authenticate`, `DPoP-Nonce`,
    /// `Retry-After`) of `response`, the same refusal in the other shape.
    package var problemResponse: Response {
        var answer = response
        answer.body = problemJSON(status: answer.status).serialized()
        answer.headers.replace(name: "Content-Type", value: Self.problemMediaType)
        return answer
    }

    /// `{type, status, title, detail[, validation_errors]}`. `type` is the `error` code of the OAuth answer, a
    /// relative URI reference (RFC 9457 §3.1.1) the SDKs surface as the error's code; `title` the status's reason
    /// phrase; `detail` the fixed `error_description`.
    package func problemJSON(status: Int) -> JSONValue {
        var members = [
            JSONMember(key: "type", value: .string(kind.rawValue)),
            JSONMember(key: "status", value: .number(String(status))),
            JSONMember(key: "title", value: .string(Self.title(status: status))),
            JSONMember(key: "detail", value: .string(clientDescription)),
        ]
        if let parameter {
            // The body member at fault, as a JSON Pointer (RFC 6901) and by name.
            let validation: JSONValue = .object([
                JSONMember(key: "detail", value: .string(clientDescription)),
                JSONMember(key: "field", value: .string(parameter)),
                JSONMember(key: "pointer", value: .string("/" + parameter)),
                JSONMember(key: "source", value: .string("body")),
            ])
            members.append(JSONMember(key: "validation_errors", value: .array([validation])))
        }
        return .object(members)
    }

    /// The RFC 9110 §15 reason phrase of the statuses refusals have.
    static func title(status: Int) -> String {
        switch status {
        case 400: "Bad Request"
        case 401: "Unauthorized"
        case 403: "Forbidden"
        case 404: "Not Found"
        case 409: "Conflict"
        case 429: "Too Many Requests"
        case 500: "Internal Server Error"
        case 503: "Service Unavailable"
        default: "Error"
        }
    }
}
