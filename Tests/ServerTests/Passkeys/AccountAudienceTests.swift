import Foundation
import HTTP
import Storage
import TestSupport
import Testing

@testable import Commands
@testable import Configuration
@testable import Endpoints
@testable import Service
@testable import passkeyd

/// Account management has an audience of its own, `<issuer>me/`: a token minted for an API (which its resource
/// server, or anyone reading its logs, holds) never manages the account (the third security review's second path).
@Suite("The account API <issuer>me/: the only audience /me/… accepts")
struct AccountAudienceTests {
    static let api = "https://payments.example.com/"
    static let extra = [
        "PASSKEYD_APIS": #"[{"identifier": "\#(api)", "scopes": [{"value": "pay"}]}]"#,
        "PASSKEYD_CLIENT_GRANTS": #"[{"client_id": "app", "audience": "\#(api)", "scopes": ["pay"]}]"#,
    ]

    static func bearer(_ token: String) -> HTTPHeaders { ["Authorization": "Bearer \(token)"] }

    @Test("the review's attack: an API's token (with openid) is refused by /me/recovery-codes at once; nothing is made")
    func apiTokenCannotManageTheAccount() async throws {
        let harness = try PasskeyHarness(Self.extra)
        var passkey = Passkey()
        let body = try await harness.signUp(&passkey, audience: Self.api)
        let token = try #require(body["access_token"]?.stringValue)
        let claims = try SRPHarness.claims(token)
        // The API and the issuer (for /userinfo), never the account API.
        #expect(claims["aud"] == [.string(Self.api), .string(TestConfiguration.issuer)])
        let codes = await harness.client.post(
            "/me/recovery-codes", json: [String: String](), headers: Self.bearer(token))
        #expect(codes.status == 401)
        #expect(codes.errorCode == "invalid_token")
        let userID = try #require(claims["sub"]?.stringValue)
        #expect(try await harness.context.store.read { try $0.recoveryCodes(userID: userID) }.isEmpty)
        // Every other account change refuses it the same way; /userinfo accepts it.
        let client = harness.client
        #expect(await client.get("/me/passkeys", headers: Self.bearer(token)).status == 401)
        #expect(
            await client.post("/me/passkeys/challenge", json: [String: String](), headers: Self.bearer(token)).status
                == 401)
        #expect(
            await client.post(
                "/me/password-verifier", json: ["identity": "x", "salt": "AAAA", "verifier": "AAAA"],
                headers: Self.bearer(token)
            ).status == 401)
        #expect(await client.delete("/me", headers: Self.bearer(token)).status == 401)
        #expect(await client.get("/userinfo", headers: Self.bearer(token)).status == 200)
    }

    @Test("the issuer's own token (a login that named no API) buys /userinfo only")
    func issuerTokenIsForUserinfo() async throws {
        let harness = try PasskeyHarness()
        var passkey = Passkey()
        let token = try #require(try await harness.signUp(&passkey)["access_token"]?.stringValue)
        #expect(await harness.client.get("/me/passkeys", headers: Self.bearer(token)).status == 401)
        #expect(await harness.client.get("/userinfo", headers: Self.bearer(token)).status == 200)
    }

    @Test("a login that asks for <issuer>me/ manages the account; its token names that audience only and the issuer")
    func accountToken() async throws {
        let harness = try PasskeyHarness()
        var passkey = Passkey()
        let body = try await harness.signUp(&passkey, audience: TestConfiguration.accountAudience)
        let token = try #require(body["access_token"]?.stringValue)
        #expect(
            try SRPHarness.claims(token)["aud"]
                == [.string(TestConfiguration.accountAudience), .string(TestConfiguration.issuer)])
        #expect(await harness.client.get("/me/passkeys", headers: Self.bearer(token)).status == 200)
        let codes = await harness.client.post(
            "/me/recovery-codes", json: [String: String](), headers: Self.bearer(token))
        #expect(codes.status == 201, "\(codes.bodyText)")
        // A refresh of an API's family cannot widen to the account API.
        let apiHarness = try PasskeyHarness(Self.extra)
        var other = Passkey()
        let apiBody = try await apiHarness.signUp(&other, audience: Self.api)
        let widened = await apiHarness.refresh(
            try #require(apiBody["refresh_token"]?.stringValue), audience: TestConfiguration.accountAudience)
        #expect(widened.errorCode == "access_denied")
    }

    @Test(
        "no API may claim passkeyd's own audiences, and the account API is never a default audience",
        arguments: [
            ["PASSKEYD_APIS": #"[{"identifier": "https://auth.example.com/me/"}]"#],
            ["PASSKEYD_APIS": #"[{"identifier": "https://auth.example.com/recovery"}]"#],
            ["PASSKEYD_APIS": #"[{"identifier": "https://auth.example.com/device-keys"}]"#],
            ["PASSKEYD_DEFAULT_AUDIENCE": "https://auth.example.com/me/"],
            ["PASSKEYD_DEVICE_KEYS_AUDIENCE": "https://auth.example.com/me/"],
        ])
    func reservedAudiences(overrides: [String: String]) throws {
        #expect(throws: ConfigurationError.self) { try TestConfiguration.make(overrides) }
    }
}
