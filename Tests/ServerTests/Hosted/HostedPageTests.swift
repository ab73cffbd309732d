import Assets
import HTTP
import JSON
import Testing

@testable import Endpoints
@testable import Service

@Suite("The hosted login page and its CSRF defence")
struct HostedPageTests {
    @Test("the page: no inline script, CSP with frame-ancestors 'none', the sealed transaction, the CSRF cookie")
    func page() async throws {
        let harness = try HostedPageHarness()
        let response = await harness.authorize(HostedPageHarness.parameters(["login_hint": "zoë\"<@example.com"]))
        let page = try HostedPageHarness.page(response)
        let csp = try #require(response.headers["Content-Security-Policy"])
        for directive in [
            "default-src 'none'", "script-src 'self'", "style-src 'self'", "connect-src 'self'",
            "frame-ancestors 'none'",
            "form-action 'none'", "base-uri 'none'",
        ] {
            #expect(csp.contains(directive), "\(directive)")
        }
        #expect(!csp.contains("unsafe-inline") && !csp.contains("unsafe-eval"))
        #expect(response.headers["X-Frame-Options"] == "DENY")
        #expect(response.headers["Cache-Control"] == "no-store")
        let html = response.bodyText
        #expect(!html.contains("<script>") && !html.contains("style="))
        for id in ["passkey-login", "identifier", "passkey-signup", "error"] { #expect(html.contains("id=\"\(id)\"")) }
        #expect(html.contains(#"role="alert""#))
        #expect(html.contains(#"autocomplete="username webauthn""#))
        // Escaped where the request's text goes in.
        #expect(html.contains("value=\"zoë&quot;&lt;@example.com\""))
        #expect(html.contains("Example &lt;Web&gt;"))
        // The CSRF cookie: the page's value, host-only, strict.
        let csrfCookie = try #require(response.setCookies.first)
        #expect(
            csrfCookie == "__Host-passkeyd_csrf=\(page.csrf); Path=/; Max-Age=600; Secure; HttpOnly; SameSite=Strict")
        // The transaction opens to the request.
        let transaction = try #require(
            try harness.context.authSessionKey.transactionSealer().open(page.transaction, now: harness.base.clock.now())
        )
        #expect(transaction.clientID == "web")
        #expect(transaction.redirectURI == HostedPageHarness.redirectURI)
        #expect(transaction.codeChallenge == HostedPageHarness.challenge)
        #expect(transaction.state == "st-1 &x")
        #expect(transaction.nonce == "n-1")
        #expect(transaction.csrf == page.csrf)
        // Two pages, two CSRF values.
        let second = try HostedPageHarness.page(await harness.authorize())
        #expect(second.csrf != page.csrf)
    }

    @Test("the script and style are served under the same policy; the script uses no eval")
    func assets() async throws {
        let harness = try HostedPageHarness()
        let script = await harness.client.get("/u/login.js")
        #expect(script.status == 200)
        #expect(script.headers["Content-Type"] == "text/javascript; charset=utf-8")
        #expect(script.bodyText.contains("navigator.credentials.get"))
        #expect(script.bodyText.contains(#"mediation: "conditional""#))
        #expect(!script.bodyText.contains("eval(") && !script.bodyText.contains("innerHTML"))
        // WebAuthn's JSON forms live in one file, which both pages load (web/shared/webauthn-json.js).
        let shared = await harness.client.get("/u/webauthn-json.js")
        #expect(shared.status == 200)
        #expect(shared.headers["Content-Type"] == "text/javascript; charset=utf-8")
        #expect(shared.headers["Content-Security-Policy"] == HostedPage.contentSecurityPolicy)
        #expect(shared.bodyText == EmbeddedAssets.webAuthnJSONScript)
        #expect(shared.bodyText.contains("function credentialJSON(credential)"))
        #expect(!script.bodyText.contains("function fromBase64URL"))
        #expect(
            EmbeddedAssets.hostedLoginPage.contains(
                "<script src=\"/u/webauthn-json.js\" defer></script>\n<script src=\"/u/response.js\" defer></script>\n"
                    + "<script src=\"/u/login.js\" defer></script>"))
        let style = await harness.client.get("/u/login.css")
        #expect(style.status == 200)
        #expect(style.headers["Content-Security-Policy"] == HostedPage.contentSecurityPolicy)
    }

    /// The four ways a POST fails the CSRF check, each 403 with nothing done.
    static let forgeries: [(String, String?, Bool, String?)] = [
        ("no header", nil, true, HostedPageHarness.origin),
        ("a wrong header", "AAAA", true, HostedPageHarness.origin),
        ("no cookie", "page", false, HostedPageHarness.origin),
        ("a foreign Origin", "page", true, "https://evil.example.net"),
    ]

    @Test(
        "a POST without the CSRF header, with a wrong one, without the cookie or from another origin: 403, nothing done"
    )
    func csrf() async throws {
        let harness = try HostedPageHarness()
        let page = try HostedPageHarness.page(await harness.authorize())
        var passkey = Passkey()
        passkey.origin = HostedPageHarness.origin
        // A ceremony started by the page itself, to complete by forged requests.
        let start = try await harness.post(
            "/u/passkey/register", [JSONMember(key: "identifier", value: "zoe@example.com")], page: page
        ).jsonValue()
        let complete: [JSONMember] = [
            JSONMember(key: "auth_session", value: try #require(start["auth_session"])),
            JSONMember(
                key: "authn_response", value: try passkey.register(try #require(start["authn_params_public_key"]))),
        ]
        for (name, header, withCookie, origin) in Self.forgeries {
            let csrfHeader: String?? = .some(header == "page" ? page.csrf : header)
            let cookies = withCookie ? [page.csrfCookie] : []
            for (path, body) in [
                ("/u/passkey/challenge", []),
                ("/u/passkey/register", [JSONMember(key: "identifier", value: "a@example.com")]),
                ("/u/passkey/complete", complete),
            ] as [(String, [JSONMember])] {
                let response = await harness.post(
                    path, body, page: page, csrfHeader: csrfHeader, cookies: cookies, origin: origin)
                #expect(response.status == 403, "\(name) \(path)")
                let error = try response.jsonValue()
                #expect(error["error"] == "invalid_request")
                #expect(error["error_description"] == "CSRF check failed")
                #expect(response.setCookies.isEmpty)
            }
        }
        // A transaction whose CSRF value is another page's: refused too.
        let other = try HostedPageHarness.page(await harness.authorize())
        let mixed = HostedPageHarness.Page(transaction: other.transaction, csrf: page.csrf, csrfCookie: page.csrfCookie)
        #expect(await harness.post("/u/passkey/challenge", page: mixed).status == 403)
        // Nothing was done: the forged completions did not spend the ceremony, the page's own request completes it.
        let done = await harness.post("/u/passkey/complete", complete, page: page)
        #expect(done.status == 200, "\(done.bodyText)")
    }

    @Test("the page's routes take no part in CORS: a preflight from a configured web origin gets no grant")
    func noCORS() async throws {
        let harness = try HostedPageHarness()
        for path in ["/u/passkey/challenge", "/u/passkey/register", "/u/passkey/complete"] {
            let response = await harness.client.execute(
                .options, path,
                headers: [
                    "Origin": "https://example.com", "Access-Control-Request-Method": "POST",
                    "Access-Control-Request-Headers": "content-type, x-passkeyd-csrf",
                ])
            #expect(response.headers["Access-Control-Allow-Origin"] == nil, "\(path)")
            #expect(response.headers["Access-Control-Allow-Headers"] == nil, "\(path)")
        }
    }

    @Test("a POST without Origin passes on header and cookie; a form body is refused; an expired page is refused")
    func otherRefusals() async throws {
        let harness = try HostedPageHarness()
        let page = try HostedPageHarness.page(await harness.authorize())
        #expect(await harness.post("/u/passkey/challenge", page: page, origin: nil).status == 200)
        var headers = HTTPHeaders()
        headers.add(name: "X-Passkeyd-CSRF", value: page.csrf)
        headers.add(name: "Cookie", value: page.csrfCookie)
        let form = await harness.client.post(
            "/u/passkey/challenge", form: [("transaction", page.transaction)], headers: headers)
        #expect(form.status == 400)
        harness.base.clock.advance(601)
        let expired = await harness.post("/u/passkey/challenge", page: page)
        #expect(expired.status == 400)
        #expect(try expired.jsonValue()["error"] == "invalid_request")
    }
}

@Suite("The hosted login's cookies on a plain-HTTP localhost issuer")
struct HostedLoopbackCookieTests {
    @Test("without the __Host- prefix and without Secure; the session cookie is read under that name")
    func plainHTTP() async throws {
        let harness = try HostedPageHarness(["PASSKEYD_ISSUER": "http://localhost:8080/"])
        let response = await harness.authorize()
        #expect(response.status == 200)
        let csrf = try #require(response.setCookies.first)
        #expect(csrf.hasPrefix("passkeyd_csrf="))
        #expect(csrf.hasSuffix("; Path=/; Max-Age=600; HttpOnly; SameSite=Strict"))
        let cookies = HostedCookies(configuration: harness.context.configuration)
        #expect(cookies.sessionName == "passkeyd_session")
        #expect(!cookies.secure)
        let now = harness.base.clock.now()
        #expect(
            cookies.session("v", expiresAt: now.addingTimeInterval(60), now: now).fieldValue
                == "passkeyd_session=v; Path=/; Max-Age=60; HttpOnly; SameSite=Lax")
    }
}
