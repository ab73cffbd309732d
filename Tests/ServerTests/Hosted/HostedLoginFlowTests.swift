import Crypto
import Foundation
import HTTP
import JSON
import Testing

@testable import Endpoints
@testable import Service

@Suite("Hosted login through the router: page, ceremony, code, tokens, the session, logout")
struct HostedLoginFlowTests {
    /// Signs up on a fresh page: the code's query and the session cookie (`name=value`).
    static func signUp(_ harness: HostedPageHarness, _ passkey: inout Passkey) async throws -> (
        [String: String], String
    ) {
        let page = try HostedPageHarness.page(await harness.authorize())
        let response = try await harness.signUp(&passkey, page: page)
        #expect(response.status == 200, "\(response.bodyText)")
        let redirect = try #require(try response.jsonValue()["redirect_to"]?.stringValue)
        #expect(redirect.hasPrefix(HostedPageHarness.redirectURI + "?code="))
        let sessionCookie = try #require(response.setCookies.first { $0.hasPrefix("__Host-passkeyd_session=") })
        #expect(sessionCookie.hasSuffix("; Path=/; Max-Age=604800; Secure; HttpOnly; SameSite=Lax"))
        return (
            try HostedPageHarness.query(redirect),
            try #require(HostedPageHarness.cookie(response, named: "__Host-passkeyd_session"))
        )
    }

    @Test("sign-up on the page → code → /oauth/token → tokens; sign-in on a second page works the same")
    func roundTrip() async throws {
        let harness = try HostedPageHarness()
        var passkey = Passkey()
        let (query, _) = try await Self.signUp(harness, &passkey)
        #expect(query["state"] == "st-1 &x")
        #expect(query["iss"] == "https://auth.example.com/")
        let code = try #require(query["code"])
        let tokens = await harness.redeem(code)
        #expect(tokens.status == 200, "\(tokens.bodyText)")
        let body = try tokens.jsonValue()
        let idToken = try #require(body["id_token"]?.stringValue)
        let claims = try JSONValue(parsing: try #require(Base64URL.decode(String(idToken.split(separator: ".")[1]))))
        #expect(claims["nonce"] == "n-1")
        #expect(claims["aud"] == "web" || claims["aud"] == ["web"])
        #expect(claims["auth_time"] != nil)
        // The code is single use.
        #expect(await harness.redeem(code).status != 200)
        // A sign-in with the same passkey from a new page, without the session cookie.
        let page = try HostedPageHarness.page(await harness.authorize())
        let signIn = try await harness.signIn(&passkey, page: page)
        #expect(signIn.status == 200, "\(signIn.bodyText)")
        let again = try HostedPageHarness.query(try signIn.jsonValue()["redirect_to"]?.stringValue)
        #expect(await harness.redeem(try #require(again["code"])).status == 200)
    }

    @Test("with a live session: a code at once; prompt=login and an exceeded max_age show the page")
    func silent() async throws {
        let harness = try HostedPageHarness()
        var passkey = Passkey()
        let (_, session) = try await Self.signUp(harness, &passkey)
        for prompt in [nil, "none"] as [String?] {
            let response = await harness.authorize(HostedPageHarness.parameters(["prompt": prompt]), cookies: [session])
            #expect(response.status == 302)
            let query = try HostedPageHarness.query(response.headers["Location"])
            #expect(query["state"] == "st-1 &x")
            #expect(query["iss"] == "https://auth.example.com/")
            #expect(await harness.redeem(try #require(query["code"])).status == 200)
        }
        let login = await harness.authorize(HostedPageHarness.parameters(["prompt": "login"]), cookies: [session])
        _ = try HostedPageHarness.page(login)
        harness.base.clock.advance(120)
        _ = try HostedPageHarness.page(
            await harness.authorize(HostedPageHarness.parameters(["max_age": "60"]), cookies: [session]))
        let within = await harness.authorize(HostedPageHarness.parameters(["max_age": "3600"]), cookies: [session])
        #expect(within.status == 302)
        // max_age exceeded with prompt=none: login_required.
        let none = await harness.authorize(
            HostedPageHarness.parameters(["max_age": "60", "prompt": "none"]), cookies: [session])
        #expect(try HostedPageHarness.query(none.headers["Location"])["error"] == "login_required")
    }

    @Test(
        "a sign-in on the page while the browser holds a session (prompt=login) replaces it: the old cookie opens nothing, the end is audited"
    )
    func reauthenticationReplacesTheSession() async throws {
        let harness = try HostedPageHarness()
        var passkey = Passkey()
        let (_, first) = try await Self.signUp(harness, &passkey)
        let page = try HostedPageHarness.page(
            await harness.authorize(HostedPageHarness.parameters(["prompt": "login"]), cookies: [first]))
        let signIn = try await harness.signIn(&passkey, page: page, cookies: [page.csrfCookie, first])
        #expect(signIn.status == 200, "\(signIn.bodyText)")
        let second = try #require(HostedPageHarness.cookie(signIn, named: "__Host-passkeyd_session"))
        #expect(second != first)
        let old = await harness.authorize(HostedPageHarness.parameters(["prompt": "none"]), cookies: [first])
        #expect(try HostedPageHarness.query(old.headers["Location"])["error"] == "login_required")
        let new = await harness.authorize(HostedPageHarness.parameters(["prompt": "none"]), cookies: [second])
        #expect(try HostedPageHarness.query(new.headers["Location"])["code"] != nil)
        // The old session's end is in the audit log, as a logout of its user by the client: reason `replaced`.
        let events = try await harness.context.store.read { try $0.securityEvents(after: 0, limit: 100) }
        let logout = try #require(events.last { $0.kind == "logout" }, "\(events.map(\.kind))")
        #expect(logout.reasonCode == "replaced" && logout.outcome == "success" && logout.clientID != nil)
        let login = try #require(events.last { $0.kind == "login" })
        #expect(logout.userID == login.userID && logout.seq > login.seq)
    }

    @Test("dpop_jkt on /authorize reaches the code through the page: only a proof by that key redeems it")
    func dpopThumbprintThroughThePage() async throws {
        let harness = try HostedPageHarness()
        let prover = try DPoPProver()
        let page = try HostedPageHarness.page(
            await harness.authorize(HostedPageHarness.parameters(["dpop_jkt": prover.thumbprint])))
        var passkey = Passkey()
        let signedUp = try await harness.signUp(&passkey, page: page)
        #expect(signedUp.status == 200, "\(signedUp.bodyText)")
        let redirect = try #require(try signedUp.jsonValue()["redirect_to"]?.stringValue)
        let code = try #require(try HostedPageHarness.query(redirect)["code"])
        let bare = await harness.redeem(code)
        #expect(bare.status == 403 && bare.errorCode == "invalid_grant", "\(bare.bodyText)")
        let stored = try await harness.context.store.read {
            try $0.authorizationCode(hash: try #require(HostedLogin.hashOfPresented(code)))
        }
        #expect(stored?.dpopThumbprint == prover.thumbprint && stored?.redeemedAt == nil)
    }

    @Test("/oidc/logout: a registered post_logout_redirect_uri gets the browser back with state, the session ends")
    func oidcLogout() async throws {
        let harness = try HostedPageHarness()
        var passkey = Passkey()
        let (query, session) = try await Self.signUp(harness, &passkey)
        let code = try #require(query["code"])
        let idToken = try #require(try await harness.redeem(code).jsonValue()["id_token"]?.stringValue)
        // An unregistered URI: the error page, nothing ended.
        let refused = await harness.client.get(
            "/oidc/logout?"
                + FormURLEncoding.encode([
                    ("client_id", "web"), ("post_logout_redirect_uri", "https://evil.example.net/"),
                ]), headers: ["Cookie": session])
        #expect(refused.status == 400)
        #expect(refused.headers["Location"] == nil)
        #expect(
            await harness.authorize(HostedPageHarness.parameters(["prompt": "none"]), cookies: [session]).headers[
                "Location"]?.contains("code=") == true)
        // A forged hint: the error page.
        let forged = await harness.client.get(
            "/oidc/logout?" + FormURLEncoding.encode([("id_token_hint", idToken.dropLast(2) + "AA")]))
        #expect(forged.status == 400)
        // The hint names the client (expiry not enforced: a day later).
        harness.base.clock.advance(86_400)
        let response = await harness.client.get(
            "/oidc/logout?"
                + FormURLEncoding.encode([
                    ("id_token_hint", idToken), ("post_logout_redirect_uri", HostedPageHarness.logoutURI),
                    ("state", "bye 1"),
                ]), headers: ["Cookie": session])
        #expect(response.status == 302)
        #expect(response.headers["Location"] == HostedPageHarness.logoutURI + "?state=bye+1")
        #expect(response.setCookies == ["__Host-passkeyd_session=; Path=/; Max-Age=0; Secure; HttpOnly; SameSite=Lax"])
        let after = await harness.authorize(HostedPageHarness.parameters(["prompt": "none"]), cookies: [session])
        #expect(try HostedPageHarness.query(after.headers["Location"])["error"] == "login_required")
    }

    @Test("/v2/logout: returnTo against the client's post-logout URIs; without returnTo the signed-out page")
    func auth0Logout() async throws {
        let harness = try HostedPageHarness()
        var passkey = Passkey()
        let (_, session) = try await Self.signUp(harness, &passkey)
        for target in [
            "/v2/logout?client_id=web&returnTo=https%3A%2F%2Fevil.example.net%2F",
            "/v2/logout?returnTo=" + "https%3A%2F%2Fapp.example.com%2Fsigned-out",
            "/v2/logout?client_id=nobody",
        ] {
            let refused = await harness.client.get(target, headers: ["Cookie": session])
            #expect(refused.status == 400, "\(target)")
            #expect(refused.headers["Location"] == nil)
        }
        let response = await harness.client.get(
            "/v2/logout?client_id=web&returnTo=https%3A%2F%2Fapp.example.com%2Fsigned-out", headers: ["Cookie": session]
        )
        #expect(response.status == 302)
        #expect(response.headers["Location"] == HostedPageHarness.logoutURI)
        let after = await harness.authorize(HostedPageHarness.parameters(["prompt": "none"]), cookies: [session])
        #expect(try HostedPageHarness.query(after.headers["Location"])["error"] == "login_required")
        let page = await harness.client.get("/v2/logout")
        #expect(page.status == 200)
        #expect(page.bodyText.contains("Signed out"))
    }

    @Test("discovery lists the authorization and end-session endpoints and the code flow's metadata")
    func discovery() async throws {
        let harness = try HostedPageHarness()
        let body = try await harness.client.get("/.well-known/openid-configuration").jsonValue()
        #expect(body["authorization_endpoint"] == "https://auth.example.com/authorize")
        #expect(body["end_session_endpoint"] == "https://auth.example.com/oidc/logout")
        #expect(body["response_types_supported"] == ["code"])
        #expect(body["response_modes_supported"] == ["query", "form_post", "web_message"])
        #expect(body["code_challenge_methods_supported"] == ["S256"])
        #expect(body["prompt_values_supported"] == ["none", "login", "create"])
        #expect(body["authorization_response_iss_parameter_supported"] == true)
        #expect(body["grant_types_supported"]?.arrayValue?.contains("authorization_code") == true)
    }

    @Test("the new routes label their answers (the route metrics and the access log read the label)")
    func routes() async throws {
        let harness = try HostedPageHarness()
        let pageResponse = await harness.authorize()
        #expect(pageResponse.route == "/authorize")
        let page = try HostedPageHarness.page(pageResponse)
        #expect(await harness.post("/u/passkey/challenge", page: page).route == "/u/passkey/challenge")
        #expect(await harness.client.get("/v2/logout").route == "/v2/logout")
        #expect(await harness.client.get("/oidc/logout").route == "/oidc/logout")
        #expect(await harness.client.get("/u/login.js").route == "/u/login.js")
    }
}
