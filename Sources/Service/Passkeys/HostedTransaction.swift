import Foundation
import JSON

/// A verified authorization request (`GET /authorize`) waiting for its passkey ceremony on the hosted page: what the
/// page carries sealed (`HostedTransactionSealer`) in `<meta name="passkeyd-transaction">` and sends back with each
/// of its POSTs, so that the server stores nothing until the login completes, and any node serves the next step.
///
/// Every field was checked by `/authorize` before it was sealed; a transaction that opens is one the server made.
package struct HostedTransaction: Sendable, Equatable {
    /// How long the page may take, from `/authorize` to its last POST.
    package static let lifetime: TimeInterval = 600

    /// The client (`client_id`), known and allowed the authorization code grant.
    package var clientID: String
    /// The redirect URI as the request spelt it (RFC 6749 §4.1.3: the token request repeats it exactly).
    package var redirectURI: String
    /// `code_challenge` (S256, RFC 7636 §4.2).
    package var codeChallenge: String
    /// The scopes asked for, space-separated as sent (`openid` when absent).
    package var scope: String
    /// `audience`, when asked for.
    package var audience: String?
    /// `organization`, as asked for (an id, or a name where the client allows it).
    package var organization: String?
    /// `nonce` (OIDC Core §3.1.2.1), echoed in the ID token.
    package var nonce: String?
    /// `state`, echoed in the redirect.
    package var state: String?
    /// `prompt` as sent (`login` here: `none` never reaches the page).
    package var prompt: String?
    /// `max_age` in seconds.
    package var maxAge: Int?
    /// `login_hint`, a suggestion for the sign-up's identifier field.
    package var loginHint: String?
    /// `dpop_jkt` (RFC 9449 §10): the thumbprint of the DPoP key the code is bound to.
    package var dpopThumbprint: String?
    /// `connection` (Auth0's name for a realm): the realm the page signs in to; `nil`, the default realm.
    package var realm: String?
    /// Auth0's `screen_hint=signup`.
    package var signUpHinted = false
    /// `response_mode`: how the code (or the error) reaches the client.
    package var responseMode = AuthorizationResponseMode.query

    /// Whether the page opens on its sign-up field: `prompt=create` (Initiating User Registration 1.0 §4) or Auth0's
    /// `screen_hint=signup`.
    package var signUpFirst: Bool { prompt == "create" || signUpHinted }
    /// The page's CSRF value (32 random bytes, base64url): the `X-Passkeyd-CSRF` header and the CSRF cookie must
    /// both equal it.
    package var csrf: String
    /// When the transaction stops opening (`lifetime` after `/authorize`).
    package var expiresAt: Date

    package init(
        clientID: String, redirectURI: String, codeChallenge: String, scope: String, csrf: String, expiresAt: Date
    ) {
        self.clientID = clientID
        self.redirectURI = redirectURI
        self.codeChallenge = codeChallenge
        self.scope = scope
        self.csrf = csrf
        self.expiresAt = expiresAt
    }

    /// The transaction as the JSON text that is sealed (short member names; absent values left out).
    package var plaintext: [UInt8] {
        var members = [
            JSONMember(key: "c", value: .string(clientID)), JSONMember(key: "r", value: .string(redirectURI)),
            JSONMember(key: "p", value: .string(codeChallenge)), JSONMember(key: "s", value: .string(scope)),
            JSONMember(key: "x", value: .string(csrf)),
            JSONMember(key: "e", value: .number(String(expiresAt.timeIntervalSince1970.bitPattern))),
        ]
        for (key, value) in [
            ("a", audience), ("o", organization), ("n", nonce), ("t", state), ("m", prompt), ("h", loginHint),
            ("j", dpopThumbprint), ("k", realm),
        ] {
            if let value { members.append(JSONMember(key: key, value: .string(value))) }
        }
        if let maxAge { members.append(JSONMember(key: "g", value: .number(String(maxAge)))) }
        if signUpHinted { members.append(JSONMember(key: "u", value: .bool(true))) }
        if responseMode != .query { members.append(JSONMember(key: "f", value: .string(responseMode.rawValue))) }
        return JSONValue.object(members).serialized()
    }

    /// The transaction `plaintext` encodes, or `nil` when it is not one.
    package init?(plaintext: [UInt8]) {
        guard let value = try? JSONValue(parsing: plaintext), let object = value.objectValue,
            let clientID = object["c"]?.stringValue, let redirectURI = object["r"]?.stringValue,
            let challenge = object["p"]?.stringValue, let scope = object["s"]?.stringValue,
            let csrf = object["x"]?.stringValue, case .number(let bits)? = object["e"], let pattern = UInt64(bits)
        else { return nil }
        let seconds = Double(bitPattern: pattern)
        guard seconds.isFinite else { return nil }
        self.init(
            clientID: clientID, redirectURI: redirectURI, codeChallenge: challenge, scope: scope, csrf: csrf,
            expiresAt: Date(timeIntervalSince1970: seconds))
        audience = object["a"]?.stringValue
        organization = object["o"]?.stringValue
        nonce = object["n"]?.stringValue
        state = object["t"]?.stringValue
        prompt = object["m"]?.stringValue
        loginHint = object["h"]?.stringValue
        dpopThumbprint = object["j"]?.stringValue
        realm = object["k"]?.stringValue
        maxAge = object["g"]?.intValue
        signUpHinted = object["u"]?.boolValue ?? false
        if let mode = object["f"] {
            guard let text = mode.stringValue, let responseMode = AuthorizationResponseMode(rawValue: text) else {
                return nil
            }
            self.responseMode = responseMode
        }
    }
}
