import Foundation
import HTTP
import JSON
import Testing
import WebAuthn

@testable import Endpoints
@testable import Service

/// `/authorize`'s `response_mode`: `form_post` (OAuth 2.0 Form Post Response Mode) and `web_message` (Auth0's, for
/// auth0-spa-js's silent authentication and popup) deliver the code or the error by a page instead of a redirect, the
/// page relaxing only what its mode needs; each is refused, by a redirect, where it cannot reach the client.
@Suite("Hosted login response modes")
struct HostedResponseModeTests {
    static let appOrigin = "https://app.example.com"
    /// The harness's clients, `web` with its origin among its web origins (what `web_message` needs), and `mobile`
    /// with a native app's redirect URI (what `form_post` cannot reach).
    static let clients = """
        [{"client_id": "app", "grant_types": ["urn:okta:params:oauth:grant-type:webauthn", "refresh_token"]},
         {"client_id": "web", "grant_types": ["authorization_code", "refresh_token"],
          "redirect_uris": ["\(HostedPageHarness.redirectURI)"], "web_origins": ["\(appOrigin)"]},
         {"client_id": "plain", "grant_types": ["authorization_code"],
          "redirect_uris": ["\(HostedPageHarness.redirectURI)"]},
         {"client_id": "mobile", "grant_types": ["authorization_code"],
          "redirect_uris": ["com.example.app://callback"]}]
        """

    static func harness() throws -> HostedPageHarness {
        try HostedPageHarness(["PASSKEYD_CLIENTS": clients])
    }

    static func parameters(_ mode: String?, _ changes: [String: String?] = [:]) -> [(String, String)] {
        HostedPageHarness.parameters(changes.merging(["response_mode": mode]) { _, new in new })
    }

    /// The form of a `form_post` answer page: its action and its hidden fields.
    static func form(_ response: Response) throws -> (action: String, fields: [String: String]) {
        let html = response.bodyText
        let action = try #require(html.range(of: "<form method=\"post\" action=\""))
        var fields: [String: String] = [:]
        var rest = html[...]
        while let input = rest.range(of: "<input type=\"hidden\" name=\"") {
            let name = rest[input.upperBound...].prefix { $0 != "\"" }
            let valueStart = try #require(rest[input.upperBound...].range(of: "value=\""))
            fields[String(name)] = unescaped(String(rest[valueStart.upperBound...].prefix { $0 != "\"" }))
            rest = rest[valueStart.upperBound...]
        }
        return (unescaped(String(html[action.upperBound...].prefix { $0 != "\"" })), fields)
    }

    /// What a `web_message` answer page hands its script.
    static func webMessage(_ response: Response) throws -> JSONValue {
        let html = response.bodyText
        let start = try #require(html.range(of: "data-passkeyd-authorization-response=\""))
        let text = unescaped(String(html[start.upperBound...].prefix { $0 != "\"" }))
        return try JSONValue(parsing: Array(text.utf8))
    }

    static func unescaped(_ text: String) -> String {
        text.replacingOccurrences(of: "&quot;", with: "\"").replacingOccurrences(of: "&#39;", with: "'")
            .replacingOccurrences(of: "&lt;", with: "<").replacingOccurrences(of: "&gt;", with: ">")
            .replacingOccurrences(of: "&amp;", with: "&")
    }

    @Test("form_post: the page's script posts the code; a session's code comes as a form POSTing to the redirect URI")
    func formPost() async throws {
        let harness = try Self.harness()
        let pageResponse = await harness.authorize(Self.parameters("form_post"))
        // The login page may post to the redirect URI's origin, and nowhere else; it is still not framed.
        let csp = try #require(pageResponse.headers["Content-Security-Policy"])
        #expect(csp.contains("form-action \(Self.appOrigin);"), "\(csp)")
        #expect(csp.contains("frame-ancestors 'none'") && pageResponse.headers["X-Frame-Options"] == "DENY")
        #expect(pageResponse.headers["Cross-Origin-Opener-Policy"] == "same-origin")
        var passkey = Passkey()
        let signedUp = try await harness.signUp(&passkey, page: try HostedPageHarness.page(pageResponse))
        #expect(signedUp.status == 200, "\(signedUp.bodyText)")
        let answer = try signedUp.jsonValue()
        #expect(answer["redirect_to"] == nil)
        let delivery = try #require(answer["authorization_response"])
        #expect(delivery["response_mode"]?.stringValue == "form_post")
        #expect(delivery["redirect_uri"]?.stringValue == HostedPageHarness.redirectURI)
        #expect(delivery["parameters"]?["state"]?.stringValue == "st-1 &x")
        #expect(delivery["parameters"]?["iss"]?.stringValue == harness.context.configuration.issuer)
        let code = try #require(delivery["parameters"]?["code"]?.stringValue)
        #expect(await harness.redeem(code).status == 200)

        // Within the session: no page, the form at once.
        let session = try #require(HostedPageHarness.cookie(signedUp, named: "__Host-passkeyd_session"))
        let response = await harness.authorize(Self.parameters("form_post"), cookies: [session])
        #expect(response.status == 200)
        #expect(response.headers["Location"] == nil)
        #expect(response.headers["Content-Security-Policy"]?.contains("form-action \(Self.appOrigin);") == true)
        #expect(response.headers["X-Frame-Options"] == "DENY")
        #expect(response.bodyText.contains(#"<script src="/u/response.js"></script>"#))
        #expect(!response.bodyText.contains("<script>"))
        let form = try Self.form(response)
        #expect(form.action == HostedPageHarness.redirectURI)
        #expect(Set(form.fields.keys) == ["code", "state", "iss"])
        #expect(form.fields["state"] == "st-1 &x")
        #expect(await harness.redeem(try #require(form.fields["code"])).status == 200)
    }

    @Test("form_post: a refusal after the redirect URI is checked comes as the form too; an unknown mode by redirect")
    func formPostRefusal() async throws {
        let harness = try Self.harness()
        let response = await harness.authorize(Self.parameters("form_post", ["code_challenge": nil]))
        #expect(response.status == 200)
        let form = try Self.form(response)
        #expect(form.action == HostedPageHarness.redirectURI)
        #expect(form.fields["error"] == "invalid_request")
        #expect(form.fields["state"] == "st-1 &x")
        #expect(form.fields["iss"] == harness.context.configuration.issuer)
        // prompt=none without a session: login_required, by the form.
        let silent = try Self.form(await harness.authorize(Self.parameters("form_post", ["prompt": "none"])))
        #expect(silent.fields["error"] == "login_required")
        // A mode this server does not have: the default mode's redirect (Multiple Response Type Encoding §2.1).
        let unknown = await harness.authorize(Self.parameters("fragment"))
        #expect(unknown.status == 302)
        #expect(try HostedPageHarness.query(unknown.headers["Location"])["error"] == "invalid_request")
    }

    @Test("form_post to a redirect URI no browser can POST to (a native app's scheme) is refused by redirect")
    func formPostNeedsAWebRedirect() async throws {
        let harness = try Self.harness()
        let response = await harness.authorize(
            Self.parameters("form_post", ["client_id": "mobile", "redirect_uri": "com.example.app://callback"]))
        #expect(response.status == 302)
        let location = try #require(response.headers["Location"])
        #expect(location.hasPrefix("com.example.app://callback?"))
        let query = try HostedPageHarness.query(location)
        #expect(query["error"] == "invalid_request")
        #expect(query["error_description"] == "response_mode=form_post needs an http or https redirect URI.")
        // Its query mode is fine.
        let page = await harness.authorize(
            Self.parameters(nil, ["client_id": "mobile", "redirect_uri": "com.example.app://callback"]))
        #expect(page.status == 200)
    }

    @Test("web_message: prompt=none answers by a page the app's origin may frame, posting to that origin only")
    func webMessageSilent() async throws {
        let harness = try Self.harness()
        let parameters = Self.parameters("web_message", ["prompt": "none"])
        let refused = await harness.authorize(parameters)
        #expect(refused.status == 200)
        let csp = try #require(refused.headers["Content-Security-Policy"])
        #expect(csp.contains("frame-ancestors \(Self.appOrigin)"), "\(csp)")
        #expect(csp.contains("form-action 'none'") && csp.contains("script-src 'self'"))
        #expect(refused.headers["X-Frame-Options"] == nil)
        #expect(refused.headers["Cross-Origin-Opener-Policy"] == "unsafe-none")
        #expect(!refused.bodyText.contains("<script>"))
        let message = try Self.webMessage(refused)
        #expect(message["response_mode"]?.stringValue == "web_message")
        #expect(message["target_origin"]?.stringValue == Self.appOrigin)
        #expect(message["parameters"]?["error"]?.stringValue == "login_required")
        #expect(message["parameters"]?["state"]?.stringValue == "st-1 &x")

        // Signed in (the page of a popup: it keeps its opener, and is not framed), then silently again: a code.
        let pageResponse = await harness.authorize(Self.parameters("web_message"))
        #expect(pageResponse.headers["Cross-Origin-Opener-Policy"] == "unsafe-none")
        #expect(pageResponse.headers["X-Frame-Options"] == "DENY")
        #expect(pageResponse.headers["Content-Security-Policy"]?.contains("frame-ancestors 'none'") == true)
        var passkey = Passkey()
        let signedUp = try await harness.signUp(&passkey, page: try HostedPageHarness.page(pageResponse))
        let delivery = try #require(try signedUp.jsonValue()["authorization_response"])
        #expect(delivery["response_mode"]?.stringValue == "web_message")
        #expect(delivery["target_origin"]?.stringValue == Self.appOrigin)
        #expect(await harness.redeem(try #require(delivery["parameters"]?["code"]?.stringValue)).status == 200)
        let session = try #require(HostedPageHarness.cookie(signedUp, named: "__Host-passkeyd_session"))
        let silent = try Self.webMessage(await harness.authorize(parameters, cookies: [session]))
        #expect(silent["parameters"]?["error"] == nil)
        #expect(await harness.redeem(try #require(silent["parameters"]?["code"]?.stringValue)).status == 200)
    }

    @Test("web_message for a client whose web origins lack the redirect URI's origin is refused by redirect")
    func webMessageNeedsAWebOrigin() async throws {
        let harness = try Self.harness()
        let response = await harness.authorize(Self.parameters("web_message", ["client_id": "plain"]))
        #expect(response.status == 302)
        let query = try HostedPageHarness.query(response.headers["Location"])
        #expect(query["error"] == "invalid_request")
        #expect(
            query["error_description"]
                == "response_mode=web_message needs the redirect URI's origin among the client's web origins.")
        #expect(query["state"] == "st-1 &x")
    }

    @Test("a pushed request's response_mode is the request's (RFC 9126 §4)")
    func pushedResponseMode() async throws {
        let harness = try Self.harness()
        let pushed = await harness.client.post("/oauth/par", form: Self.parameters("form_post"))
        #expect(pushed.status == 201, "\(pushed.bodyText)")
        let requestURI = try #require(try pushed.jsonValue()["request_uri"]?.stringValue)
        let page = await harness.authorize([("client_id", "web"), ("request_uri", requestURI)])
        #expect(page.headers["Content-Security-Policy"]?.contains("form-action \(Self.appOrigin);") == true)
        let transaction = try #require(
            try harness.context.authSessionKey.transactionSealer().open(
                try HostedPageHarness.page(page).transaction, now: harness.base.clock.now()))
        #expect(transaction.responseMode == .formPost)
    }

    @Test("the sealed transaction carries the mode; query is left out; a mode it does not know does not open")
    func sealedMode() throws {
        var transaction = HostedPageHarness.transaction()
        #expect(!String(decoding: transaction.plaintext, as: UTF8.self).contains("\"f\""))
        #expect(HostedTransaction(plaintext: transaction.plaintext)?.responseMode == .query)
        for mode in [AuthorizationResponseMode.formPost, .webMessage] {
            transaction.responseMode = mode
            #expect(HostedTransaction(plaintext: transaction.plaintext) == transaction)
        }
        let text = String(decoding: transaction.plaintext, as: UTF8.self)
            .replacingOccurrences(of: "\"web_message\"", with: "\"fragment\"")
        #expect(HostedTransaction(plaintext: Array(text.utf8)) == nil)
    }

    @Test("a redirect URI's web origin: lower-cased, no default port, IPv6 bracketed; none for other schemes")
    func webOrigin() {
        #expect(OriginPolicy.webOrigin(of: "https://App.Example.com:443/cb?x=1") == "https://app.example.com")
        #expect(OriginPolicy.webOrigin(of: "http://127.0.0.1:8080/cb") == "http://127.0.0.1:8080")
        #expect(OriginPolicy.webOrigin(of: "http://localhost/cb") == "http://localhost")
        #expect(OriginPolicy.webOrigin(of: "http://[::1]:8080/cb") == "http://[::1]:8080")
        #expect(OriginPolicy.webOrigin(of: "https://auth.example.com/") == "https://auth.example.com")
        #expect(OriginPolicy.webOrigin(of: "com.example.app://callback") == nil)
        #expect(OriginPolicy.webOrigin(of: "https:///nohost") == nil)
    }

    @Test("the response script is served under the hosted policy")
    func responseScript() async throws {
        let harness = try Self.harness()
        let script = await harness.client.get("/u/response.js")
        #expect(script.status == 200)
        #expect(script.headers["Content-Type"] == "text/javascript; charset=utf-8")
        #expect(script.bodyText.contains("postMessage") && script.bodyText.contains("authorization_response"))
        #expect(!script.bodyText.contains("eval("))
        #expect(script.headers["Content-Security-Policy"] == HostedPage.contentSecurityPolicy)
    }
}
