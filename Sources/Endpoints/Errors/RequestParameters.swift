import HTTP
import JSON
import Service

/// The top-level parameters of a request body (JSON object or form, RFC 6749 §4.1.3 / Auth0's JSON bodies),
/// read with the OAuth error for each way a parameter can be wrong.
package struct RequestParameters: Sendable {
    private let values: [String: JSONValue]

    /// Reads the body of `request` as JSON or `application/x-www-form-urlencoded`.
    /// - Throws: `HTTPError` (mapped to 400 `invalid_request`).
    package init(_ request: Request) throws {
        values = try request.bodyParameters()
    }

    package init(values: [String: JSONValue]) {
        self.values = values
    }

    /// A required string parameter (RFC 6749 §5.2 `invalid_request` when missing, empty or not a string).
    package func string(_ name: String, maxLength: Int = 4096) throws -> String {
        guard let value = values[name], !value.isNull else { throw OAuthError.missingParameter(name) }
        guard let text = value.stringValue, !text.isEmpty, text.utf8.count <= maxLength else {
            throw OAuthError.invalidParameter(name, reason: "is not a non-empty string of at most \(maxLength) bytes")
        }
        return text
    }

    /// An optional string parameter; absent or `null` is `nil`.
    /// Whether `name` is present (and not null), whatever its type.
    package func contains(_ name: String) -> Bool {
        values[name].map { !$0.isNull } ?? false
    }

    package func optionalString(_ name: String, maxLength: Int = 4096) throws -> String? {
        guard let value = values[name], !value.isNull else { return nil }
        return try string(name, maxLength: maxLength)
    }

    /// An optional JSON object parameter (as `object(_:)` reads it); absent or `null` is `nil`.
    package func optionalObject(_ name: String) throws -> JSONValue? {
        guard let value = values[name], !value.isNull else { return nil }
        return try object(name)
    }

    /// A required JSON object parameter. In a form body (or when a client sends JSON text) the value is the
    /// object's JSON text, as Auth0 accepts `authn_response` in form-encoded token requests.
    package func object(_ name: String) throws -> JSONValue {
        guard let value = values[name], !value.isNull else { throw OAuthError.missingParameter(name) }
        switch value {
        case .object:
            return value
        case .string(let text):
            guard let parsed = try? JSONValue(parsing: Array(text.utf8)), parsed.objectMembers != nil else {
                throw OAuthError.invalidParameter(name, reason: "is not a JSON object")
            }
            return parsed
        default:
            throw OAuthError.invalidParameter(name, reason: "is not a JSON object")
        }
    }
}
