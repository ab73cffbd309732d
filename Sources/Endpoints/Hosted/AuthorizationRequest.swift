import Crypto
import Configuration
import Foundation
import Service
import WebAuthn

/// `GET /authorize`'s parameters, checked (OIDC Core §3.1.2.1, RFC 6749 §4.1.1, RFC 7636 §4.3, RFC 9700 §2.1.1) in
/// the order that decides how a refusal is answered: first the client and its redirect URI, which must be right
/// before anything is sent there (an error page otherwise, RFC 6749 §4.1.2.1); then everything else, refused by a
/// redirect with `error`, `state` and `iss`. Unknown parameters (Auth0's `auth0Client`, …) are ignored
/// (RFC 6749 §3.1).
package struct AuthorizationRequest: Sendable {
    /// How a request is refused.
    package enum Refusal: Error, Sendable, Equatable {
        /// The error page (400), never a redirect: the client or the redirect URI is not known to be right.
        case page(String)
        /// A redirect to the client's redirect URI with `error` and `error_description` (RFC 6749 §4.1.2.1).
        case redirect(error: String, description: String)
    }

    /// A parse's outcome: the request, or the refusal with what is known of where to send it (the redirect URI only
    /// once it is known to be the client's).
    package enum Parsed: Sendable {
        case accepted(AuthorizationRequest)
        /// `responseMode`: how a redirect refusal reaches the client, the request's `response_mode` once it was found
        /// valid, `query` before.
        case refused(Refusal, redirectURI: String?, state: String?, responseMode: AuthorizationResponseMode)
    }

    /// The `prompt` values supported (OIDC Core §3.1.2.1; `create`: OpenID Connect Initiating User Registration 1.0
    /// §4), as discovery lists them.
    package static let promptValues = ["none", "login", "create"]
    /// Longest `state`, `nonce` and `login_hint` accepted, in bytes.
    package static let maximumStateLength = 2048
    package static let maximumNonceLength = 512
    package static let maximumLoginHintLength = 256

    /// The client, known and allowed the authorization code grant.
    package let client: ClientConfiguration
    /// `redirect_uri` as sent, one of the client's (`RedirectURIRules`).
    package let redirectURI: String
    /// `state`, echoed with every answer that goes back to the client.
    package let state: String?
    /// The rest, ready to seal: set once the whole request has been checked.
    package private(set) var transaction: HostedTransaction

    /// Whether `prompt` has `none`: no page may be shown (OIDC Core §3.1.2.1).
    package var promptNone: Bool { transaction.prompt == "none" }
    /// Whether `prompt` has `login` or `create`: a live session is not enough, the page is shown.
    package var promptLogin: Bool { transaction.prompt == "login" || transaction.prompt == "create" }

    /// The client and the redirect URI of `query`.
    /// - Throws: `.page` for an unknown client, one without the authorization code grant, or a missing or
    ///   unregistered `redirect_uri`.
    private static func clientAndRedirect(
        _ query: [String: String], repeated: [String], configuration: ServerConfiguration
    ) throws(Refusal) -> (ClientConfiguration, String) {
        let clientID = try requestedClientID(query, repeated: repeated, alsoOnce: "redirect_uri")
        guard let client = configuration.client(id: clientID),
            client.grantTypes.contains(GrantType.authorizationCode.rawValue)
        else { throw .page("The client is unknown or may not use this sign-in page.") }
        // OIDC Core §3.1.2.1: redirect_uri is required; RFC 9700 §2.1: exact match (RedirectURIRules).
        guard let redirectURI = query["redirect_uri"], !redirectURI.isEmpty,
            RedirectURIRules.match(redirectURI, in: client.redirectURIs) != nil
        else { throw .page("The redirect URI is missing or not registered for this client.") }
        return (client, redirectURI)
    }

    /// The query's `client_id`, present and sent once, as is `alsoOnce` (RFC 6749 §3.1: no parameter more than once;
    /// which client or redirect URI was meant is then unknown, so the page).
    /// - Throws: `.page`.
    static func requestedClientID(_ query: [String: String], repeated: [String], alsoOnce other: String)
        throws(Refusal) -> String
    {
        for name in ["client_id", other] where repeated.contains(name) {
            throw .page("The request names more than one \(name).")
        }
        guard let clientID = query["client_id"], !clientID.isEmpty else {
            throw .page("The request names no client (client_id).")
        }
        return clientID
    }

    /// The checked request of `query`, its transaction expiring `HostedTransaction.lifetime` after `now` and carrying
    /// `csrf`. `pushed`: `query` is a pushed request's (RFC 9126), which a client with
    /// `require_pushed_authorization_requests` must send.
    package static func parse(
        _ query: [String: String], repeated: [String] = [], configuration: ServerConfiguration, csrf: String,
        now: Date, pushed: Bool = false
    ) -> Parsed {
        let client: ClientConfiguration
        let redirectURI: String
        do throws(Refusal) {
            (client, redirectURI) = try clientAndRedirect(query, repeated: repeated, configuration: configuration)
        } catch {
            return .refused(error, redirectURI: nil, state: nil, responseMode: .query)
        }
        // The state goes back even with an error about it (unless it is itself the error: then none goes back).
        let state = query["state"].flatMap { $0.utf8.count <= maximumStateLength ? $0 : nil }
        // Refusals go back by the default mode until the request's own is known to be valid and allowed.
        var responseMode = AuthorizationResponseMode.query
        do throws(Refusal) {
            // RFC 6749 §3.1: "Request and response parameters MUST NOT be included more than once."
            if let name = repeated.first { throw invalid("\(name) is included more than once.") }
            // RFC 9126 §6: this client's requests come pushed, never in the query.
            if client.requirePushedAuthorizationRequests, !pushed {
                throw invalid("This client must push its authorization requests (POST /oauth/par, then request_uri).")
            }
            responseMode = try checkedResponseMode(
                query["response_mode"], client: client, redirectURI: redirectURI, configuration: configuration)
            var transaction = try checkedTransaction(
                query, client: client, redirectURI: redirectURI, configuration: configuration, csrf: csrf, now: now)
            transaction.responseMode = responseMode
            return .accepted(
                AuthorizationRequest(client: client, redirectURI: redirectURI, state: state, transaction: transaction))
        } catch {
            return .refused(error, redirectURI: redirectURI, state: state, responseMode: responseMode)
        }
    }

    /// `response_mode` (OAuth 2.0 Multiple Response Type Encoding Practices §2.1; absent or empty: `query`), allowed
    /// only where it can reach the client: `form_post` (Form Post Response Mode §2) needs a redirect URI a browser
    /// can POST to (http or https); `web_message` posts to the redirect URI's origin, which must be one of the
    /// client's web origins (the top-level `web_origins` or its own: Auth0's "Allowed Web Origins", which this mode
    /// requires there too), as the answer page may be framed by it.
    private static func checkedResponseMode(
        _ text: String?, client: ClientConfiguration, redirectURI: String, configuration: ServerConfiguration
    ) throws(Refusal) -> AuthorizationResponseMode {
        guard let text, !text.isEmpty else { return .query }
        guard let mode = AuthorizationResponseMode(rawValue: text) else {
            throw invalid("response_mode may be query, form_post or web_message.")
        }
        switch mode {
        case .query:
            break
        case .formPost:
            guard OriginPolicy.webOrigin(of: redirectURI) != nil else {
                throw invalid("response_mode=form_post needs an http or https redirect URI.")
            }
        case .webMessage:
            guard let origin = OriginPolicy.webOrigin(of: redirectURI),
                OriginPolicy(allowedOrigins: configuration.webOrigins + client.webOrigins).allows(origin: origin)
            else {
                throw invalid(
                    "response_mode=web_message needs the redirect URI's origin among the client's web origins.")
            }
        }
        return mode
    }

    /// Whether `text` is a SHA-256 digest in base64url without padding, as S256's `code_challenge` (RFC 7636 §4.2) and
    /// `dpop_jkt` (RFC 9449 §10, RFC 7638) spell one: 43 characters, their canonical decoding 32 bytes.
    private static func isSHA256Digest(_ text: String) -> Bool {
        text.utf8.count == 43 && Base64URL.decode(text)?.count == 32
    }

    private static func invalid(_ description: String) -> Refusal {
        .redirect(error: "invalid_request", description: description)
    }

    /// Every parameter after the client and the redirect URI.
    private static func checkedTransaction(
        _ query: [String: String], client: ClientConfiguration, redirectURI: String,
        configuration: ServerConfiguration, csrf: String, now: Date
    ) throws(Refusal) -> HostedTransaction {
        // OIDC Core §6.1/§6.2: request objects are not supported.
        if query["request"] != nil {
            throw .redirect(error: "request_not_supported", description: "Request objects are not supported.")
        }
        if query["request_uri"] != nil {
            throw .redirect(error: "request_uri_not_supported", description: "request_uri is not supported.")
        }
        // RFC 6749 §4.1.1, §4.1.2.1: response_type is required; only "code" (RFC 9700 §2.1.2: no implicit grant).
        guard let responseType = query["response_type"], !responseType.isEmpty else {
            throw invalid("response_type is required.")
        }
        guard responseType == "code" else {
            throw .redirect(error: "unsupported_response_type", description: "Only response_type=code is supported.")
        }
        // RFC 7636 §4.3/§4.4.1, RFC 9700 §2.1.1: PKCE with S256 for every client (all are public); a missing method
        // means "plain", refused as "plain" is.
        guard let challenge = query["code_challenge"], !challenge.isEmpty else {
            throw invalid("code_challenge is required (PKCE, S256).")
        }
        guard query["code_challenge_method"] == "S256" else {
            throw invalid("code_challenge_method must be S256.")
        }
        // RFC 7636 §4.2: S256's challenge is base64url of a SHA-256 digest, without padding: 43 characters.
        guard Self.isSHA256Digest(challenge) else {
            throw invalid("code_challenge is not an S256 challenge.")
        }
        // RFC 9449 §10: `dpop_jkt` binds the code to a DPoP key, the JWK SHA-256 thumbprint (RFC 7638) in base64url.
        let dpopThumbprint = query["dpop_jkt"].flatMap { $0.isEmpty ? nil : $0 }
        if let dpopThumbprint, !Self.isSHA256Digest(dpopThumbprint) {
            throw invalid("dpop_jkt is not a JWK SHA-256 thumbprint.")
        }
        let prompt = try checkedPrompt(query["prompt"])
        let maxAge = try checkedMaxAge(query["max_age"])
        let scopeText = query["scope"] ?? Scope.default.tokens.joined(separator: " ")
        guard Scope(parsing: scopeText) != nil, !scopeText.isEmpty else {
            throw .redirect(error: "invalid_scope", description: "The scope is malformed.")
        }
        if let audience = query["audience"] {
            guard audience.utf8.count <= 512, ServerConfiguration.isAudience(audience) else {
                throw invalid("The audience is malformed.")
            }
        }
        if let state = query["state"], state.utf8.count > maximumStateLength { throw invalid("state is too long.") }
        if let nonce = query["nonce"], nonce.utf8.count > maximumNonceLength { throw invalid("nonce is too long.") }
        if let hint = query["login_hint"], hint.utf8.count > maximumLoginHintLength {
            throw invalid("login_hint is too long.")
        }
        let organization = query["organization"].flatMap { $0.isEmpty ? nil : $0 }
        if let organization, organization.utf8.count > 256 { throw invalid("The organization is malformed.") }
        do {
            _ = try OrganizationRequest.checked(organization, client: client, configuration: configuration)
        } catch let error as OAuthError {
            throw .redirect(error: error.kind.rawValue, description: error.clientDescription)
        } catch {
            throw invalid("The organization is malformed.")
        }
        // Auth0's `connection`: the realm to sign in to (a realm is what Auth0 calls a connection), by name.
        let realm = query["connection"].flatMap { $0.isEmpty ? nil : $0 }
        if let realm, configuration.realm(named: realm) == nil {
            throw invalid("The connection is not configured.")
        }
        var transaction = HostedTransaction(
            clientID: client.clientID, redirectURI: redirectURI, codeChallenge: challenge, scope: scopeText, csrf: csrf,
            expiresAt: now.addingTimeInterval(HostedTransaction.lifetime))
        transaction.audience = query["audience"]
        transaction.organization = organization
        transaction.nonce = query["nonce"].flatMap { $0.isEmpty ? nil : $0 }
        transaction.state = query["state"]
        transaction.prompt = prompt
        transaction.maxAge = maxAge
        transaction.loginHint = query["login_hint"].flatMap { $0.isEmpty ? nil : $0 }
        transaction.dpopThumbprint = dpopThumbprint
        transaction.realm = realm
        // Auth0's `screen_hint=signup`: the page opens on its sign-up field (as for `prompt=create`). Other hints are
        // Auth0's own screens, ignored as unknown parameters are (RFC 6749 §3.1).
        transaction.signUpHinted = query["screen_hint"] == "signup"
        return transaction
    }

    /// `prompt` (OIDC Core §3.1.2.1): a space-separated list of `promptValues`; `none` with any other value is an
    /// error, and so is a value this server does not support (`consent`, `select_account`, anything else). `create`
    /// (Initiating User Registration 1.0 §4: show the account creation UI) shows the page as `login` does, sign-up
    /// first, and wins over `login` when both are sent.
    private static func checkedPrompt(_ text: String?) throws(Refusal) -> String? {
        guard let text, !text.isEmpty else { return nil }
        let values = Set(text.split(separator: " ").map(String.init))
        guard values.isSubset(of: promptValues) else {
            throw invalid("prompt may be none, login or create.")
        }
        if values.contains("none") {
            guard values.count == 1 else { throw invalid("prompt=none cannot be combined with another value.") }
            return "none"
        }
        if values.contains("create") { return "create" }
        return values.isEmpty ? nil : "login"
    }

    /// `max_age` (OIDC Core §3.1.2.1): a non-negative number of seconds.
    private static func checkedMaxAge(_ text: String?) throws(Refusal) -> Int? {
        guard let text else { return nil }
        guard !text.isEmpty, text.utf8.count <= 10, text.utf8.allSatisfy({ (0x30...0x39).contains($0) }),
            let seconds = Int(text)
        else { throw invalid("max_age is not a number of seconds.") }
        return seconds
    }
}
