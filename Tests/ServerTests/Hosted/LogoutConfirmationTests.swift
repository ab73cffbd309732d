import Foundation
import HTTP
import JSON
import Testing

@testable import Endpoints
@testable import Service

@Suite("/oidc/logout asks the user unless the id_token_hint is the session's user (RP-Initiated Logout 1.0 §2)")
struct LogoutConfirmationTests {
    /// `/oidc/logout?…` with the session cookie (`name=value`), if any.
    static func logout(_ harness: HostedPageHarness, _ parameters: [(String, String)], session: String?) async
        -> Response
    {
        var headers = HTTPHeaders()
        if let session { headers.add(name: "Cookie", value: session) }
        return await harness.client.get("/oidc/logout?" + FormURLEncoding.encode(parameters), headers: headers)
    }

    /// The hidden fields of the question's form, by name.
    static func hiddenFields(_ page: Response) -> [String: String] {
        var fields: [String: String] = [:]
        for line in page.bodyText.split(separator: "\n") where line.hasPrefix("<input type=\"hidden\"") {
            let parts = line.split(separator: "\"")
            // <input type="hidden" name="N" value="V">
            guard parts.count >= 6 else { continue }
            fields[String(parts[3])] = String(parts[5])
                .replacingOccurrences(of: "&amp;", with: "&").replacingOccurrences(of: "&quot;", with: "\"")
                .replacingOccurrences(of: "&lt;", with: "<").replacingOccurrences(of: "&gt;", with: ">")
        }
        return fields
    }

    /// Posts the question's answer: its hidden fields (changed by `changes`), `confirm`, and the cookies given.
    static func answer(
        _ harness: HostedPageHarness, _ page: Response, confirm: String, cookies: [String],
        changes: [String: String] = [:], origin: String? = HostedPageHarness.origin
    ) async -> Response {
        var fields = hiddenFields(page)
        for (name, value) in changes { fields[name] = value }
        fields["confirm"] = confirm
        var headers = HTTPHeaders()
        headers.add(name: "Cookie", value: cookies.joined(separator: "; "))
        if let origin { headers.add(name: "Origin", value: origin) }
        return await harness.client.post(
            "/oidc/logout", form: fields.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }, headers: headers)
    }

    /// Whether the session cookie still gets a code without a page (`prompt=none`).
    static func isLive(_ harness: HostedPageHarness, session: String) async -> Bool {
        let silent = await harness.authorize(HostedPageHarness.parameters(["prompt": "none"]), cookies: [session])
        return silent.headers["Location"]?.contains("code=") == true
    }

    static let returnParameters = [
        ("client_id", "web"), ("post_logout_redirect_uri", HostedPageHarness.logoutURI), ("state", "bye <1>"),
    ]

    @Test("no hint: the question, nothing ended; yes ends the session and goes back with state (303)")
    func withoutHint() async throws {
        let harness = try HostedPageHarness()
        var passkey = Passkey()
        let (_, session) = try await HostedLoginFlowTests.signUp(harness, &passkey)
        let page = await Self.logout(harness, Self.returnParameters, session: session)
        #expect(page.status == 200)
        #expect(page.headers["Location"] == nil)
        #expect(page.bodyText.contains("<form method=\"post\" action=\"https://auth.example.com/oidc/logout\">"))
        #expect(
            page.headers["Content-Security-Policy"]
                == "default-src 'none'; style-src 'self'; img-src 'self'; base-uri 'none'; "
                + "form-action 'self' https://app.example.com; frame-ancestors 'none'")
        #expect(page.headers["X-Frame-Options"] == "DENY")
        #expect(page.headers["Referrer-Policy"] == "same-origin")
        #expect(page.setCookies.allSatisfy { !$0.hasPrefix("__Host-passkeyd_session=") })
        let logoutCookie = try #require(HostedPageHarness.cookie(page, named: "__Host-passkeyd_logout"))
        #expect(page.setCookies.contains { $0.hasPrefix("__Host-passkeyd_logout=") && $0.hasSuffix("SameSite=Strict") })
        let fields = Self.hiddenFields(page)
        #expect(fields["client_id"] == "web")
        #expect(fields["post_logout_redirect_uri"] == HostedPageHarness.logoutURI)
        #expect(fields["state"] == "bye <1>")
        #expect(logoutCookie == "__Host-passkeyd_logout=" + (fields["csrf"] ?? "-"))
        #expect(await Self.isLive(harness, session: session))

        let answered = await Self.answer(harness, page, confirm: "yes", cookies: [session, logoutCookie])
        #expect(answered.status == 303)
        #expect(answered.headers["Location"] == HostedPageHarness.logoutURI + "?state=bye+%3C1%3E")
        #expect(
            answered.setCookies.contains("__Host-passkeyd_session=; Path=/; Max-Age=0; Secure; HttpOnly; SameSite=Lax"))
        #expect(answered.setCookies.contains { $0.hasPrefix("__Host-passkeyd_logout=; Path=/; Max-Age=0") })
        #expect(await !Self.isLive(harness, session: session))
    }

    @Test("no: the session stays, the browser goes back; without a return address a page says so")
    func stayingSignedIn() async throws {
        let harness = try HostedPageHarness()
        var passkey = Passkey()
        let (_, session) = try await HostedLoginFlowTests.signUp(harness, &passkey)
        let page = await Self.logout(harness, Self.returnParameters, session: session)
        let logoutCookie = try #require(HostedPageHarness.cookie(page, named: "__Host-passkeyd_logout"))
        let kept = await Self.answer(harness, page, confirm: "no", cookies: [session, logoutCookie])
        #expect(kept.status == 303)
        #expect(kept.headers["Location"] == HostedPageHarness.logoutURI + "?state=bye+%3C1%3E")
        #expect(kept.setCookies.allSatisfy { !$0.hasPrefix("__Host-passkeyd_session=") })
        #expect(await Self.isLive(harness, session: session))

        let bare = await Self.logout(harness, [], session: session)
        #expect(bare.status == 200)
        #expect(
            bare.headers["Content-Security-Policy"]?.contains("form-action 'self'; frame-ancestors 'none'") == true)
        let bareCookie = try #require(HostedPageHarness.cookie(bare, named: "__Host-passkeyd_logout"))
        let stayed = await Self.answer(harness, bare, confirm: "no", cookies: [session, bareCookie])
        #expect(stayed.status == 200)
        #expect(stayed.bodyText.contains("You are still signed in."))
        let ended = await Self.answer(harness, bare, confirm: "yes", cookies: [session, bareCookie])
        #expect(ended.status == 200)
        #expect(ended.bodyText.contains("You are signed out."))
        #expect(await !Self.isLive(harness, session: session))
    }

    @Test("a forged answer ends nothing: no logout cookie, another value, a foreign Origin, no answer, a new address")
    func forgedAnswers() async throws {
        let harness = try HostedPageHarness()
        var passkey = Passkey()
        let (_, session) = try await HostedLoginFlowTests.signUp(harness, &passkey)
        let page = await Self.logout(harness, Self.returnParameters, session: session)
        let logoutCookie = try #require(HostedPageHarness.cookie(page, named: "__Host-passkeyd_logout"))
        // Another site's form: the Strict cookie does not come with it.
        let noCookie = await Self.answer(harness, page, confirm: "yes", cookies: [session])
        #expect(noCookie.status == 403)
        #expect(noCookie.bodyText.contains("CSRF check failed"))
        let otherValue = await Self.answer(
            harness, page, confirm: "yes", cookies: [session, "__Host-passkeyd_logout=AAAA"])
        #expect(otherValue.status == 403)
        let foreign = await Self.answer(
            harness, page, confirm: "yes", cookies: [session, logoutCookie], origin: "https://evil.example.net")
        #expect(foreign.status == 403)
        let opaque = await Self.answer(harness, page, confirm: "yes", cookies: [session, logoutCookie], origin: "null")
        #expect(opaque.status == 403)
        let unanswered = await Self.answer(harness, page, confirm: "maybe", cookies: [session, logoutCookie])
        #expect(unanswered.status == 400)
        // The return address is checked again on the POST: never redirected to, nothing ended.
        let moved = await Self.answer(
            harness, page, confirm: "yes", cookies: [session, logoutCookie],
            changes: ["post_logout_redirect_uri": "https://evil.example.net/"])
        #expect(moved.status == 400)
        #expect(moved.headers["Location"] == nil)
        let notAForm = await harness.client.post(
            "/oidc/logout", json: JSONValue.object([]), headers: ["Cookie": session + "; " + logoutCookie])
        #expect(notAForm.status == 415)
        let malformed = await harness.client.post(
            "/oidc/logout", body: Array("csrf=%ZZ".utf8), contentType: "application/x-www-form-urlencoded",
            headers: ["Cookie": session + "; " + logoutCookie])
        #expect(malformed.status == 400)
        #expect(await Self.isLive(harness, session: session))
        // A browser that sends no Origin (older ones, on a same-origin POST) still answers.
        let answered = await Self.answer(harness, page, confirm: "yes", cookies: [session, logoutCookie], origin: nil)
        #expect(answered.status == 303)
        #expect(await !Self.isLive(harness, session: session))
    }

    @Test("a hint of another user asks; the session's own user's hint ends it at once; no session, nothing to ask")
    func hints() async throws {
        let harness = try HostedPageHarness()
        var zoe = Passkey()
        let (zoeQuery, zoeSession) = try await HostedLoginFlowTests.signUp(harness, &zoe)
        let zoeCode = try #require(zoeQuery["code"])
        let zoeToken = try #require(try await harness.redeem(zoeCode).jsonValue()["id_token"]?.stringValue)
        // A second user in another browser.
        var yan = Passkey()
        let yanPage = try HostedPageHarness.page(await harness.authorize())
        let yanSignUp = try await harness.signUp(&yan, page: yanPage, identifier: "yan@example.com")
        let yanSession = try #require(HostedPageHarness.cookie(yanSignUp, named: "__Host-passkeyd_session"))

        let asked = await Self.logout(
            harness, [("id_token_hint", zoeToken), ("post_logout_redirect_uri", HostedPageHarness.logoutURI)],
            session: yanSession)
        #expect(asked.status == 200)
        #expect(Self.hiddenFields(asked)["client_id"] == "web")
        #expect(await Self.isLive(harness, session: yanSession))

        let ended = await Self.logout(harness, [("id_token_hint", zoeToken)], session: zoeSession)
        #expect(ended.status == 200)
        #expect(ended.bodyText.contains("You are signed out."))
        #expect(await !Self.isLive(harness, session: zoeSession))

        // Zoe's session is over: the same request finds nothing to ask about and goes straight back.
        let nothing = await Self.logout(harness, Self.returnParameters, session: zoeSession)
        #expect(nothing.status == 302)
        #expect(nothing.headers["Location"] == HostedPageHarness.logoutURI + "?state=bye+%3C1%3E")
        let noCookie = await Self.logout(harness, [], session: nil)
        #expect(noCookie.status == 200)
        #expect(noCookie.bodyText.contains("You are signed out."))
        #expect(await Self.isLive(harness, session: yanSession))
    }

    @Test("the policy's form-action names the return address's origin, or its scheme; never odd characters")
    func sourceExpressions() {
        #expect(
            LogoutConfirmation.sourceExpression("https://App.example.com:8443/out?x=1")
                == "https://App.example.com:8443")
        #expect(LogoutConfirmation.sourceExpression("http://127.0.0.1:9000/out") == "http://127.0.0.1:9000")
        #expect(LogoutConfirmation.sourceExpression("http://[::1]:9000/out") == "http://[::1]:9000")
        #expect(LogoutConfirmation.sourceExpression("com.example.app:/signed-out") == "com.example.app:")
        #expect(LogoutConfirmation.sourceExpression("com.example.app://signed-out") == "com.example.app://signed-out")
        #expect(LogoutConfirmation.sourceExpression("https://a.example.com;x/") == nil)
        #expect(LogoutConfirmation.sourceExpression("no scheme") == nil)
        #expect(
            LogoutConfirmation.contentSecurityPolicy(returnTo: "https://a.example.com%20b/")
                == "default-src 'none'; style-src 'self'; img-src 'self'; base-uri 'none'; form-action 'self'; "
                + "frame-ancestors 'none'")
    }
}
