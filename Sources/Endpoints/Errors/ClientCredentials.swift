import Foundation
import HTTP
import JSON
import Service
import Tokens

/// What a request presents to identify its client (RFC 6749 §2.3.1): `Authorization: Basic` with the client id and
/// secret (`client_secret_basic`), `client_id` with an optional `client_secret` in the body (`client_secret_post`; a
/// public client sends no secret), or a JWT signed with the client's key in `client_assertion` (`private_key_jwt`,
/// RFC 7523 §2.2, `client_id` optional). Never two of them (§2.3: "MUST NOT use more than one authentication method
/// in each request").
struct ClientCredentials: Sendable, Equatable {
    /// The client's id.
    let clientID: String
    /// The presented secret, `nil` when none was sent (an empty one counts as none: a public client's `Basic`
    /// header may carry an empty password).
    let secret: String?
    /// Whether they came in `Authorization: Basic` (a refusal then carries a `Basic` challenge, RFC 6749 §5.2).
    let viaBasic: Bool
    /// The `client_assertion` (RFC 7523 §2.2), not yet verified; `nil` for the other methods.
    var assertion: String? = nil

    /// The longest secret read (passkeyd's are 43 characters; a longer one cannot match any).
    static let maximumSecretLength = 512

    /// The credentials of `request`, whose body is `parameters`.
    /// - Throws: 400 `invalid_request` without any `client_id`, or with a `Basic` header and a `client_secret`;
    ///   401 `invalid_client` (with the `Basic` challenge) for a `Basic` header that does not decode, or a body
    ///   `client_id` that is not the header's.
    static func of(_ parameters: RequestParameters, request: Request) throws -> ClientCredentials {
        let bodySecret = try parameters.optionalString("client_secret", maxLength: maximumSecretLength)
        if let assertion = try assertion(parameters, request: request, secret: bodySecret) { return assertion }
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

    /// The longest `client_assertion` read: the JWT verifier's own bound.
    static let maximumAssertionLength = JWTVerifier.Configuration().maxTokenLength
    /// The body parameters that carry a client's credentials (RFC 6749 §2.3.1, RFC 7521 §4.2): never part of what a
    /// request asks for (a pushed authorization request drops them before it is sealed).
    static let credentialParameters = ["client_secret", "client_assertion", "client_assertion_type"]

    /// Whether `parameters` carry a client assertion, or its type (a request that cannot be answered inline, whose
    /// `jti` is spent in the store: `ClientResolution.inlineClient`).
    static func carriesAssertion(_ parameters: RequestParameters) -> Bool {
        parameters.contains("client_assertion") || parameters.contains("client_assertion_type")
    }

    /// The credentials of a `client_assertion` (RFC 7521 §4.2, RFC 7523 §2.2), `nil` when the request sends neither it
    /// nor `client_assertion_type`. The client is the body's `client_id`, else the assertion's `iss` (verified with
    /// that client's keys afterwards: `ClientResolution`).
    /// - Throws: 400 `invalid_request` with a secret or a `Basic` header too; 401 `invalid_client` for a missing
    ///   assertion or type, a type other than `jwt-bearer`, or an assertion that names no client.
    private static func assertion(_ parameters: RequestParameters, request: Request, secret: String?) throws
        -> ClientCredentials?
    {
        let assertion = try parameters.optionalString("client_assertion", maxLength: maximumAssertionLength)
        let type = try parameters.optionalString("client_assertion_type", maxLength: 128)
        guard assertion != nil || type != nil else { return nil }
        if secret != nil || request.headers["Authorization"].map({ $0.lowercased().hasPrefix("basic ") }) == true {
            throw OAuthError(
                .invalidRequest, "Use one client authentication method.", logCode: "client_authentication_twice",
                reason: "client_assertion with a client secret")
        }
        guard type == ClientAssertion.assertionType else {
            throw refusal(
                "client_assertion_type_unsupported", reason: "client_assertion_type is not jwt-bearer", basic: false)
        }
        guard let assertion else {
            throw refusal(
                "client_assertion_missing", reason: "client_assertion_type without an assertion", basic: false)
        }
        // RFC 7521 §4.2: client_id is optional; when sent, the assertion must be that client's (its iss, verified).
        let named = try parameters.optionalString("client_id", maxLength: 128)
        guard let clientID = named ?? ClientAssertion.claimedIssuer(of: assertion), !clientID.isEmpty,
            clientID.utf8.count <= 128
        else {
            throw refusal("client_assertion_malformed", reason: "the assertion names no client", basic: false)
        }
        return ClientCredentials(clientID: clientID, secret: nil, viaBasic: false, assertion: assertion)
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
