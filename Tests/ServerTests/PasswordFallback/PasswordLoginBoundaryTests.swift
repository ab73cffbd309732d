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

/// The password alone never buys a device key, an approval or account management (docs/password-fallback.md):
/// the attack the third security review found (SRP token → key_invalidated → enrol → approve) ends at its first
/// step, and each later step refuses a password login on its own as well.
@Suite("What a password login buys: the issuer's /userinfo by default, never device keys or the account")
struct PasswordLoginBoundaryTests {
    static let identity = "alice@example.com"
    static let password = "correct horse battery staple"

    /// A signed-up user with a password verifier and a device key enrolled by a passkey login: (harness, key id).
    static func victim(_ extra: [String: String] = [:]) async throws -> (SRPHarness, String) {
        let harness = try SRPHarness(extra)
        var passkey = Passkey()
        let account = try await harness.signUp(&passkey)
        try await harness.enrol(
            identity: identity, password: password, accessToken: try #require(account["access_token"]?.stringValue))
        let login = try await harness.passkeys.logIn(
            &passkey, audience: harness.passkeys.context.tokens.deviceKeyAudience)
        let token = try #require(try login.jsonValue()["access_token"]?.stringValue)
        let registered = await harness.passkeys.client.post(
            "/device-keys", json: try TestDevice(deviceID: "phone").registration, headers: bearer(token))
        try #require(registered.status == 201, "\(registered.bodyText)")
        return (harness, try #require(try registered.jsonValue()["key_id"]?.stringValue))
    }

    static func bearer(_ token: String) -> HTTPHeaders { ["Authorization": "Bearer \(token)"] }

    @Test("the review's attack: the SRP grant refuses the device-key audience, so nothing after it can happen")
    func attackEndsAtTheGrant() async throws {
        let (harness, keyID) = try await Self.victim()
        let tokens = harness.passkeys.context.tokens
        // Step 1 of the attack: a password login asking for the device-key API.
        let refused = try await harness.logIn(
            identity: Self.identity, password: Self.password, audience: tokens.deviceKeyAudience
        ).response
        #expect(refused.status == 403)
        #expect(refused.errorCode == "access_denied")
        #expect(try refused.jsonValue()["access_token"] == nil)
        // The key stays, and no device event was recorded.
        let userID = try #require(
            try await harness.store.read { try $0.passwordVerifier(realm: "main", identity: Self.identity) }?.userID)
        #expect(try await harness.store.read { try $0.deviceKey(id: keyID, userID: userID) }?.status == .active)
        #expect(!(try await harness.events()).contains { $0.kind == "key_invalidated" })
        // The account API is refused the same way.
        let account = try await harness.logIn(
            identity: Self.identity, password: Self.password, audience: tokens.accountAudience
        ).response
        #expect(account.errorCode == "access_denied")
    }

    @Test("the default password token is the issuer's: /userinfo only; device keys and /me refuse it")
    func defaultTokenBuysUserinfoOnly() async throws {
        let (harness, keyID) = try await Self.victim()
        let body = try await harness.logIn(identity: Self.identity, password: Self.password).response.jsonValue()
        let token = try #require(body["access_token"]?.stringValue)
        #expect(try SRPHarness.claims(token)["aud"] == .string("https://auth.example.com/"))
        let client = harness.passkeys.client
        #expect(await client.get("/userinfo", headers: Self.bearer(token)).status == 200)
        let invalidated = await client.post(
            "/device-events", json: ["device_id": "phone", "type": "key_invalidated"], headers: Self.bearer(token))
        #expect(invalidated.status == 401)
        #expect(await client.get("/device-keys", headers: Self.bearer(token)).status == 401)
        let enrol = await client.post(
            "/device-keys", json: try TestDevice(deviceID: "phone").registration, headers: Self.bearer(token))
        #expect(enrol.status == 401)
        #expect(await client.get("/me/passkeys", headers: Self.bearer(token)).status == 401)
        #expect(await client.delete("/device-keys/\(keyID)", headers: Self.bearer(token)).status == 401)
    }

    @Test("a password login's token is refused by every device-key endpoint even if it carried their audience")
    func passwordTokenRefusedAtDeviceKeys() async throws {
        let harness = try DeviceKeyHarness()
        let passkeyToken = try await harness.token()
        let device = try TestDevice(deviceID: "phone")
        let keyID = try await harness.register(device, passkeyToken)
        // Minted as the pre-fix SRP grant minted it: the device-key audience, amr pwd, fresh.
        let password = try await harness.token(methods: ["pwd"])
        let client = harness.client
        let responses = [
            await client.post("/device-keys", json: try TestDevice(deviceID: "phone").registration, headers: password),
            await client.post("/device-keys/enrolment-challenge", json: [String: String](), headers: password),
            await client.get("/device-keys", headers: password),
            await client.post("/device-keys/\(keyID)/challenges", json: ["action": ["type": "x"]], headers: password),
            await client.post(
                "/device-keys/\(keyID)/approvals", json: ["challenge_id": "c", "signature": "AAAA"], headers: password),
            await client.post("/device-keys/\(keyID)/unlock", json: [String: String](), headers: password),
            await client.delete("/device-keys/\(keyID)", headers: password),
            await client.post(
                "/device-events", json: ["device_id": "phone", "type": "key_invalidated"], headers: password),
        ]
        for response in responses {
            #expect(response.status == 401)
            #expect(response.errorCode == "insufficient_user_authentication")
        }
        #expect(try await harness.storedKey(keyID)?.status == .active)
        #expect(try await harness.events().contains { $0.reasonCode == "password_login_for_device_keys" })
    }

    @Test("after a biometry change the replacement key needs a passkey login; a recent password login never enrols")
    func replacementNeedsPasskey() async throws {
        let harness = try DeviceKeyHarness()
        let device = try TestDevice(deviceID: "phone")
        let keyID = try await harness.register(device, try await harness.token())
        // The app reports the biometry change with a fresh passkey login (proof enough).
        let reported = await harness.client.post(
            "/device-events", json: ["device_id": "phone", "type": "key_invalidated"],
            headers: try await harness.token())
        #expect(reported.status == 200)
        #expect(try await harness.storedKey(keyID)?.status == .revoked)
        let replacement = try TestDevice(deviceID: "phone")
        let byPassword = await harness.client.post(
            "/device-keys", json: replacement.registration, headers: try await harness.token(methods: ["pwd"]))
        #expect(byPassword.status == 401)
        #expect(byPassword.errorCode == "insufficient_user_authentication")
        #expect(try await harness.register(replacement, try await harness.token()) != keyID)
    }

    @Test("password_login_audiences: an API configured for a client is served, amr pwd kept across refreshes")
    func configuredAudience() async throws {
        let api = "https://vault.example.com/"
        let extra = [
            "PASSKEYD_APIS": #"[{"identifier": "\#(api)", "scopes": [{"value": "vault:unlock"}]}]"#,
            "PASSKEYD_CLIENT_GRANTS": #"[{"client_id": "app", "audience": "\#(api)", "scopes": ["vault:unlock"]}]"#,
        ]
        var clients = try #require(SRPHarness.clientsOverride)
        clients = clients.replacingOccurrences(
            of: #"{"client_id": "app","#, with: #"{"client_id": "app", "password_login_audiences": ["\#(api)"],"#)
        let (harness, _) = try await Self.victim(extra.merging(["PASSKEYD_CLIENTS": clients]) { _, new in new })
        let response = try await harness.logIn(identity: Self.identity, password: Self.password, audience: api)
            .response
        #expect(response.status == 200, "\(response.bodyText)")
        let body = try response.jsonValue()
        let claims = try SRPHarness.claims(try #require(body["access_token"]?.stringValue))
        #expect(claims["aud"] == [.string(api), "https://auth.example.com/"])
        #expect(claims["amr"] == ["pwd"])
        // Refreshed: still a password login, and still not for the device-key API.
        let refresh = try #require(body["refresh_token"]?.stringValue)
        let widened = await harness.passkeys.refresh(
            refresh, audience: harness.passkeys.context.tokens.deviceKeyAudience)
        #expect(widened.errorCode == "access_denied")
        let refreshed = await harness.passkeys.refresh(refresh)
        #expect(refreshed.status == 200, "\(refreshed.bodyText)")
        let next = try refreshed.jsonValue()
        let nextClaims = try SRPHarness.claims(try #require(next["access_token"]?.stringValue))
        #expect(nextClaims["amr"] == ["pwd"])
        #expect(nextClaims["auth_time"] == claims["auth_time"])
        // The issuer's own API is not in this client's list any more: a password login for it is refused.
        let issuer = try await harness.logIn(identity: Self.identity, password: Self.password).response
        #expect(issuer.errorCode == "access_denied")
    }

    @Test(
        "password_login_audiences naming the device-key or account API, or no API at all, stops the start",
        arguments: ["https://auth.example.com/device-keys", "https://auth.example.com/me/", "https://nowhere.example/"])
    func refusedAudiences(audience: String) throws {
        let clients = #"[{"client_id": "app", "password_login_audiences": ["\#(audience)"]}]"#
        #expect(throws: ConfigurationError.self) {
            try TestConfiguration.make(["PASSKEYD_CLIENTS": clients])
        }
    }
}
