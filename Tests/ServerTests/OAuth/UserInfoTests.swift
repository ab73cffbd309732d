import HTTP
import TestSupport
import Testing

@testable import Commands
@testable import Endpoints
@testable import Service
@testable import passkeyd

@Suite("GET /userinfo and Bearer authentication")
struct UserInfoTests {
    @Test("a valid access token gets the subject's claims per scope")
    func claims() async throws {
        let harness = try PasskeyHarness()
        var authenticator = Passkey()
        let tokens = try await harness.signUp(&authenticator)
        let access = try #require(tokens["access_token"]?.stringValue)
        let response = await harness.client.get("/userinfo", headers: ["Authorization": "Bearer \(access)"])
        #expect(response.status == 200)
        let body = try response.jsonValue()
        #expect(body["email"]?.stringValue == "alice@example.com")
        #expect(body["sub"]?.stringValue?.count == 32)
        let subject = try await harness.context.tokens.authenticate(
            Request(method: .get, path: "/x", headers: ["Authorization": "bearer \(access)"]))
        #expect(subject.clientID == "app")
        #expect(subject.scope.contains("offline_access"))
        #expect(subject.authTime == harness.clock.now())
    }

    @Test("no token: 401 with a bare Bearer challenge")
    func missing() async throws {
        let harness = try PasskeyHarness()
        let response = await harness.client.get("/userinfo")
        #expect(response.status == 401)
        #expect(response.headers["WWW-Authenticate"] == #"Bearer realm="passkeyd""#)
    }

    @Test(
        "bad tokens: 401 invalid_token with the challenge",
        arguments: ["Bearer abc.def.ghi", "Basic dXNlcjpwYXNz", "Bearer"])
    func bad(header: String) async throws {
        let harness = try PasskeyHarness()
        let response = await harness.client.get("/userinfo", headers: ["Authorization": header])
        #expect(response.status == 401)
        #expect(response.errorCode == "invalid_token")
        #expect(response.headers["WWW-Authenticate"]?.contains(#"error="invalid_token""#) == true)
    }

    @Test("an expired token, an ID token and a token for another audience are refused")
    func refused() async throws {
        let harness = try PasskeyHarness([
            "PASSKEYD_APIS": #"[{"identifier": "https://api.example.com"}]"#,
            "PASSKEYD_CLIENT_GRANTS": #"[{"client_id": "app", "audience": "https://api.example.com"}]"#,
        ])
        var authenticator = Passkey()
        let tokens = try await harness.signUp(&authenticator)
        let idToken = try #require(tokens["id_token"]?.stringValue)
        #expect(await harness.client.get("/userinfo", headers: ["Authorization": "Bearer \(idToken)"]).status == 401)
        let (options, session) = try await harness.loginOptions()
        let other = try await harness.post(
            "/oauth/token",
            [
                "grant_type": "urn:okta:params:oauth:grant-type:webauthn", "client_id": "app",
                "auth_session": .string(session),
                "authn_response": try authenticator.assert(options), "audience": "https://api.example.com",
                "scope": "email",
            ]
        ).jsonValue()
        let foreign = try #require(other["access_token"]?.stringValue)
        #expect(await harness.client.get("/userinfo", headers: ["Authorization": "Bearer \(foreign)"]).status == 401)
        let access = try #require(tokens["access_token"]?.stringValue)
        harness.clock.advance(3600 + 31)
        let expired = await harness.client.get("/userinfo", headers: ["Authorization": "Bearer \(access)"])
        #expect(expired.status == 401)
        #expect(harness.counted("invalid_token:token_expired"))
    }
}
