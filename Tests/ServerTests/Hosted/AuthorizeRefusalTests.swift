import HTTP
import JSON
import Testing

@testable import Endpoints

@Suite("GET /authorize: refusals (RFC 6749 §4.1.2.1, RFC 7636, RFC 9207)")
struct AuthorizeRefusalTests {
    @Test(
        "an unknown client, a client without the grant, a missing or unregistered redirect URI: the error page, never a redirect",
        arguments: [
            ["client_id": "nobody"], ["client_id": nil], ["client_id": "app"], ["redirect_uri": nil],
            ["redirect_uri": "https://evil.example.net/callback"],
            ["redirect_uri": "https://app.example.com/callback/"],
            ["redirect_uri": "https://app.example.com/cb"],
        ] as [[String: String?]])
    func errorPage(changes: [String: String?]) async throws {
        let harness = try HostedPageHarness()
        let response = await harness.authorize(HostedPageHarness.parameters(changes))
        #expect(response.status == 400)
        #expect(response.headers["Location"] == nil)
        #expect(response.headers["Content-Type"] == "text/html; charset=utf-8")
        #expect(response.headers["Content-Security-Policy"]?.contains("frame-ancestors 'none'") == true)
        #expect(response.setCookies.isEmpty)
    }

    @Test(
        "other errors go back to the redirect URI with error, error_description, state and iss",
        arguments: [
            (["code_challenge": nil], "invalid_request"),
            (["code_challenge_method": "plain"], "invalid_request"),
            (["code_challenge_method": nil], "invalid_request"),
            (["code_challenge": "short"], "invalid_request"),
            (["response_type": "token"], "unsupported_response_type"),
            (["response_type": "code id_token"], "unsupported_response_type"),
            (["response_type": nil], "invalid_request"),
            (["response_mode": "fragment"], "invalid_request"),
            (["prompt": "consent"], "invalid_request"),
            (["prompt": "none login"], "invalid_request"),
            (["max_age": "-1"], "invalid_request"),
            (["scope": "openid\u{7F}"], "invalid_scope"),
            (["request": "eyJ"], "request_not_supported"),
            (["request_uri": "urn:x"], "request_uri_not_supported"),
            (["organization": "org_aaAA1aa11aAAAA1a"], "invalid_request"),
            (["audience": "https://unknown.example.com/"], "access_denied"),
            // RFC 9449 §10: a JWK SHA-256 thumbprint, 43 base64url characters for 32 bytes.
            (["dpop_jkt": "0ZcOCORZNYy-DWpqq30jZyJGHTN0d2HglBV3uiguA4"], "invalid_request"),
            (["dpop_jkt": "0ZcOCORZNYy-DWpqq30jZyJGHTN0d2HglBV3uiguA4I="], "invalid_request"),
            (["dpop_jkt": "0ZcOCORZNYy+DWpqq30jZyJGHTN0d2HglBV3uiguA4I"], "invalid_request"),
        ] as [([String: String?], String)])
    func redirected(changes: [String: String?], error: String) async throws {
        let harness = try HostedPageHarness()
        let response = await harness.authorize(HostedPageHarness.parameters(changes))
        #expect(response.status == 302, "\(response.bodyText)")
        let location = try #require(response.headers["Location"])
        #expect(location.hasPrefix(HostedPageHarness.redirectURI + "?"))
        let query = try HostedPageHarness.query(location)
        #expect(query["error"] == error)
        #expect(query["error_description"]?.isEmpty == false)
        #expect(query["state"] == "st-1 &x")
        #expect(query["iss"] == "https://auth.example.com/")
        #expect(query["code"] == nil)
        #expect(response.setCookies.isEmpty)
    }

    @Test("a redirect URI's own query is kept, and the response's parameters are added to it (RFC 6749 §3.1.2)")
    func redirectURIQueryKept() async throws {
        let harness = try HostedPageHarness()
        let response = await harness.authorize(
            HostedPageHarness.parameters(["redirect_uri": "https://app.example.com/cb?tenant=1", "prompt": "none"]))
        let location = try #require(response.headers["Location"])
        #expect(location.hasPrefix("https://app.example.com/cb?tenant=1&error=login_required&"))
    }

    @Test("a loopback redirect URI matches with any port (RFC 8252 §7.3)")
    func loopbackPort() async throws {
        let harness = try HostedPageHarness()
        let response = await harness.authorize(
            HostedPageHarness.parameters([
                "client_id": "native", "redirect_uri": "http://127.0.0.1:53124/cb", "prompt": "none",
            ]))
        #expect(response.status == 302)
        #expect(response.headers["Location"]?.hasPrefix("http://127.0.0.1:53124/cb?error=login_required&") == true)
    }

    @Test("prompt=none without a login session: login_required; unknown parameters are ignored")
    func loginRequired() async throws {
        let harness = try HostedPageHarness()
        for cookies in [[], ["__Host-passkeyd_session=" + String(repeating: "A", count: 43)]] {
            let response = await harness.authorize(
                HostedPageHarness.parameters(["prompt": "none", "auth0Client": "eyJuYW1lIjoiQXV0aDAuc3dpZnQifQ"]),
                cookies: cookies)
            #expect(response.status == 302)
            let query = try HostedPageHarness.query(response.headers["Location"])
            #expect(query["error"] == "login_required")
            #expect(query["state"] == "st-1 &x")
            #expect(query["iss"] == "https://auth.example.com/")
        }
    }

    @Test("a parameter sent twice (RFC 6749 §3.1): the error page for the client or the redirect URI, else a redirect")
    func repeatedParameters() async throws {
        let harness = try HostedPageHarness()
        for name in ["client_id", "redirect_uri"] {
            let parameters = HostedPageHarness.parameters()
            let twice = try #require(parameters.first { $0.0 == name })
            let response = await harness.authorize(parameters + [twice])
            #expect(response.status == 400, "\(name)")
            #expect(response.headers["Location"] == nil, "\(name)")
        }
        for name in ["scope", "state", "code_challenge"] {
            let parameters = HostedPageHarness.parameters()
            let twice = try #require(parameters.first { $0.0 == name })
            let response = await harness.authorize(parameters + [twice])
            #expect(response.status == 302, "\(name)")
            let query = try HostedPageHarness.query(response.headers["Location"])
            #expect(query["error"] == "invalid_request", "\(name)")
            #expect(query["error_description"] == "\(name) is included more than once.", "\(name)")
            #expect(query["iss"] == "https://auth.example.com/", "\(name)")
        }
    }
}
