import Foundation
import HTTP
import JSON
import Service

/// What a request presents to identify its client (RFC 6749 §2.3.1): `Authorization: Basic` with the client id and
/// secret (`client_secret_basic`), or `client_id` with an optional `client_secret` in the body
/// (`client_secret_post`; a public client sends no secret). Never both a `Basic` header and a `client_secret` (§2.3:
/// "MUST NOT use more than one authentication method in each request").
struct ClientCredentials: Sendable, Equatable {
    /// The client's id.
    let clientID: String
    /// The presented secret, `nil` when none was sent (an empty one counts as none: a public client's `Basic`
    /// header may carry an empty password).
    let secret: String?
    /// Whether they came in `Authorization: Basic` (a refusal then carries a `Basic` challenge, RFC 6749 §5.2).
    let viaBasic: Bool

    /// The longest secret read (passkeyd's are 43 characters; a longer one cannot match any).
    static let maximumSecretLength = 512

    /// The credentials of `request`, whose body is `parameters`.
    /// - Throws: 400 `invalid_request` without any `client_id`, or with a `Basic` header and a `client_secret`;
    ///   401 `invalid_client` (with the `Basic` challenge) for a `Basic` header that does not decode, or a body
    ///   `client_id` that is not the header's.
    static func of(_ parameters: RequestParameters, request: Request) throws -> ClientCredentials {
        let bodySecret = try parameters.optionalString("client_secret", maxLength: maximumSecretLength)
        guard let basic = try basic(request.headers["Authorization"]) else {
            let clientID = try parameters.string("client_id", maxLength: 128)
            return ClientCredentials(clientID: clientID, secret: bodySecret, viaBasic: false)
        }
        if bodySecret != nil {
            throw OAuthError(
                .invalidRequest, "Use one client authentication method.", logCode: "client_authentication_twice",
                reason: "an Authorization: Basic header and client_secret in the body")
        }
        // RFC 6749 §2.3.1: the body need not repeat the id; when it does, it must be the header's.
        if let bodyID = try parameters.optionalString("client_id", maxLength: 128), bodyID != basic.clientID {
            throw refusal(
                "client_id_mismatch", reason: "the body's client_id is not the Basic credentials'", basic: true)
        }
        return basic
    }

    /// The credentials of an `Authorization: Basic` header (RFC 7617 §2: base64 of `user-id:password`, each
    /// form-urlencoded first as RFC 6749 §2.3.1 asks), `nil` for no header or another scheme (a `Bearer` or `DPoP`
    /// token is no client's credentials).
    static func basic(_ header: String?) throws -> ClientCredentials? {
        guard let header, header.count > 6, header.prefix(6).lowercased() == "basic " else { return nil }
        let token = header.dropFirst(6).trimmingCharacters(in: .whitespaces)
        // The base64 of the longest credentials read: a 128-byte id and a secret, each percent-encoded (3 bytes each).
        guard token.utf8.count <= (3 * (128 + maximumSecretLength) + 1 + 2) / 3 * 4,
            let decoded = Data(base64Encoded: token), let text = String(data: decoded, encoding: .utf8),
            let colon = text.firstIndex(of: ":")
        else { throw refusal("basic_malformed", reason: "the Basic credentials do not decode", basic: true) }
        let clientID: String
        let secret: String
        do {
            clientID = try FormURLEncoding.decodeComponent(String(text[..<colon]))
            secret = try FormURLEncoding.decodeComponent(String(text[text.index(after: colon)...]))
        } catch {
            throw refusal("basic_malformed", reason: "the Basic credentials are not form-urlencoded", basic: true)
        }
        guard !clientID.isEmpty, clientID.utf8.count <= 128, secret.utf8.count <= maximumSecretLength else {
            throw refusal("basic_malformed", reason: "the Basic credentials' client id or secret length", basic: true)
        }
        return ClientCredentials(clientID: clientID, secret: secret.isEmpty ? nil : secret, viaBasic: true)
    }

    /// The one answer to credentials that do not authenticate their client (RFC 6749 §5.2 `invalid_client`, 401),
    /// the same description whatever failed; `basic`: the request used `Authorization: Basic`, so the answer
    /// carries its challenge.
    static func refusal(_ logCode: String, reason: String, basic: Bool) -> OAuthError {
        var error = OAuthError(
            .invalidClient, "Client authentication failed.", logCode: logCode, reason: reason)
        error.basicChallenge = basic
        return error
    }
}
