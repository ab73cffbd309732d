import Foundation
import HTTP
import JSON
import Storage
import TestSupport
import Testing

@testable import Endpoints
@testable import Service

/// The hosted login through the router: `PasskeyHarness` with clients that opt in (`web`: https redirect and
/// post-logout URIs; `native`: a loopback redirect URI), and the browser's side of `/authorize`, the page and its
/// POSTs (cookies carried by hand).
struct HostedPageHarness {
    let base: PasskeyHarness
    var client: TestClient { base.client }
    var context: ServerContext { base.context }

    /// The hosted page's origin: the issuer's.
    static let origin = "https://auth.example.com"
    static let redirectURI = "https://app.example.com/callback"
    static let logoutURI = "https://app.example.com/signed-out"
    /// RFC 7636 Appendix B's verifier and its S256 challenge.
    static let verifier = "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk"
    static let challenge = "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM"

    static let clients = """
        [{"client_id": "app", "grant_types": ["urn:okta:params:oauth:grant-type:webauthn", "refresh_token"]},
         {"client_id": "web", "name": "Example <Web>", "grant_types": ["authorization_code", "refresh_token"],
          "redirect_uris": ["\(redirectURI)", "https://app.example.com/cb?tenant=1"],
          "post_logout_redirect_uris": ["\(logoutURI)"]},
         {"client_id": "native", "grant_types": ["authorization_code"], "redirect_uris": ["http://127.0.0.1/cb"]}]
        """

    init(_ extra: [String: String] = [:]) throws {
        base = try PasskeyHarness(["PASSKEYD_CLIENTS": Self.clients].merging(extra) { _, new in new })
    }

    /// `/authorize`'s parameters for `web` with PKCE, overridden or removed (`nil`) by `changes`.
    static func parameters(_ changes: [String: String?] = [:]) -> [(String, String)] {
        var values: [String: String?] = [
            "response_type": "code", "client_id": "web", "redirect_uri": redirectURI, "scope": "openid profile email",
            "state": "st-1 &x", "nonce": "n-1", "code_challenge": challenge, "code_challenge_method": "S256",
        ]
        for (name, value) in changes { values[name] = value }
        return values.compactMap { name, value in value.map { (name, $0) } }.sorted { $0.0 < $1.0 }
    }

    /// A transaction of `web` with only its required members, for the sealed form's round trips.
    static func transaction() -> HostedTransaction {
        HostedTransaction(
            clientID: "web", redirectURI: redirectURI, codeChallenge: challenge, scope: "openid", csrf: "c",
            expiresAt: Date(timeIntervalSince1970: 1_800_000_000))
    }

    /// `GET /authorize` with `parameters` and the given cookies (`name=value`).
    func authorize(_ parameters: [(String, String)] = parameters(), cookies: [String] = []) async -> Response {
        var headers = HTTPHeaders()
        if !cookies.isEmpty { headers.add(name: "Cookie", value: cookies.joined(separator: "; ")) }
        return await client.get("/authorize?" + FormURLEncoding.encode(parameters), headers: headers)
    }

    /// The query of a `Location`, decoded.
    static func query(_ location: String?) throws -> [String: String] {
        let location = try #require(location)
        let request = Request(method: .get, target: "/?" + (location.split(separator: "?", maxSplits: 1).last ?? ""))
        return request.query
    }

    /// The cookie `name=value` a response sets under `name`, or `nil`.
    static func cookie(_ response: Response, named name: String) -> String? {
        response.setCookies.first { $0.hasPrefix(name + "=") }.map { String($0.prefix { $0 != ";" }) }
    }

    /// What the page hands its script: the sealed transaction, the CSRF value and the CSRF cookie.
    struct Page {
        let transaction: String
        let csrf: String
        let csrfCookie: String
    }

    /// The page `response` is (expects 200 HTML).
    static func page(_ response: Response) throws -> Page {
        try #require(response.status == 200, "page: \(response.status) \(response.bodyText)")
        func meta(_ name: String) throws -> String {
            let html = response.bodyText
            let start = try #require(html.range(of: "<meta name=\"\(name)\" content=\""))
            return String(html[start.upperBound...].prefix { $0 != "\"" })
        }
        return Page(
            transaction: try meta("passkeyd-transaction"), csrf: try meta("passkeyd-csrf"),
            csrfCookie: try #require(cookie(response, named: "__Host-passkeyd_csrf")))
    }

    /// A page POST: the transaction added to `body`; the CSRF header, cookie and `Origin` as given.
    func post(
        _ path: String, _ body: [JSONMember] = [], page: Page, csrfHeader: String?? = .none,
        cookies: [String]? = nil, origin: String? = HostedPageHarness.origin
    ) async -> Response {
        var headers = HTTPHeaders()
        if let header = csrfHeader ?? page.csrf { headers.add(name: "X-Passkeyd-CSRF", value: header) }
        let cookies = cookies ?? [page.csrfCookie]
        if !cookies.isEmpty { headers.add(name: "Cookie", value: cookies.joined(separator: "; ")) }
        if let origin { headers.add(name: "Origin", value: origin) }
        let members = [JSONMember(key: "transaction", value: .string(page.transaction))] + body
        return await client.post(path, json: .object(members), headers: headers)
    }

    /// A sign-up on the page with `passkey` (its origin set to the page's): the `/u/passkey/complete` response.
    func signUp(_ passkey: inout Passkey, page: Page, identifier: String = "zoe@example.com") async throws -> Response {
        passkey.origin = Self.origin
        let start = try await post(
            "/u/passkey/register", [JSONMember(key: "identifier", value: .string(identifier))], page: page
        )
        .jsonValue()
        let options = try #require(start["authn_params_public_key"], "register: \(start)")
        let session = try #require(start["auth_session"])
        return await post(
            "/u/passkey/complete",
            [
                JSONMember(key: "auth_session", value: session),
                JSONMember(key: "authn_response", value: try passkey.register(options)),
            ], page: page)
    }

    /// A sign-in on the page with `passkey`: the `/u/passkey/complete` response (its request with `cookies`, when
    /// given, as a browser that holds a session sends them).
    func signIn(_ passkey: inout Passkey, page: Page, cookies: [String]? = nil) async throws -> Response {
        let start = try await post("/u/passkey/challenge", page: page).jsonValue()
        let options = try #require(start["authn_params_public_key"], "challenge: \(start)")
        let session = try #require(start["auth_session"])
        return await post(
            "/u/passkey/complete",
            [
                JSONMember(key: "auth_session", value: session),
                JSONMember(key: "authn_response", value: try passkey.assert(options)),
            ], page: page, cookies: cookies)
    }

    /// `POST /oauth/token` with the authorization code grant for `web`.
    func redeem(_ code: String, verifier: String = HostedPageHarness.verifier) async -> Response {
        await client.post(
            "/oauth/token",
            form: [
                ("grant_type", "authorization_code"), ("client_id", "web"), ("code", code),
                ("redirect_uri", Self.redirectURI), ("code_verifier", verifier),
            ])
    }
}
