import Crypto
import Foundation
import HTTP
import JSON
import Storage
import TestSupport
import Testing

@testable import Commands
@testable import Endpoints
@testable import Service
@testable import passkeyd

@Suite("The unlock policy: three biometric failures, then the password; a biometry change needs a passkey login")
struct UnlockPolicyTests {
    static let identity = "alice@example.com"
    static let password = "correct horse battery staple"

    /// Signed up, enrolled, one device key: (harness, passkey, sign-up tokens, device, key id).
    static func setUp() async throws -> (SRPHarness, Passkey, JSONValue, TestDevice, String) {
        let harness = try SRPHarness()
        var passkey = Passkey()
        // The password is set with a login for the account API; the key is enrolled with one for the device-key API
        // (its audience), as the app asks for before enrolling a key.
        let account = try await harness.signUp(&passkey)
        try await harness.enrol(
            identity: identity, password: password, accessToken: try #require(account["access_token"]?.stringValue))
        let tokens = try await harness.passkeys.logIn(
            &passkey, audience: harness.passkeys.context.tokens.deviceKeyAudience
        ).jsonValue()
        let accessToken = try #require(tokens["access_token"]?.stringValue)
        let device = try TestDevice(deviceID: "phone")
        let registered = await harness.passkeys.client.post(
            "/device-keys", json: device.registration, headers: auth(accessToken))
        try #require(registered.status == 201, "\(registered.bodyText)")
        return (harness, passkey, tokens, device, try #require(try registered.jsonValue()["key_id"]?.stringValue))
    }

    static func auth(_ token: String) -> HTTPHeaders { ["Authorization": "Bearer \(token)"] }

    /// A challenge and its signed approval for `keyID`.
    static func approve(_ harness: SRPHarness, _ device: TestDevice, _ keyID: String, token: String) async throws
        -> Response
    {
        let client = harness.passkeys.client
        let issued = await client.post(
            "/device-keys/\(keyID)/challenges", json: ["action": ["type": "unlock_vault"]], headers: auth(token))
        try #require(issued.status == 201, "\(issued.bodyText)")
        let body = try issued.jsonValue()
        return await client.post(
            "/device-keys/\(keyID)/approvals",
            json: [
                "challenge_id": .string(try #require(body["challenge_id"]?.stringValue)),
                "signature": .string(try device.sign(challenge: try #require(body["challenge"]?.stringValue))),
            ], headers: auth(token))
    }

    @Test("3 biometric failures: approvals answer password_required until an SRP login of the user")
    func threeFailures() async throws {
        let (harness, _, tokens, device, keyID) = try await Self.setUp()
        let token = try #require(tokens["access_token"]?.stringValue)
        for _ in 1...3 {
            let reported = await harness.passkeys.client.post(
                "/device-events", json: ["device_id": "phone", "type": "biometric_failure"], headers: Self.auth(token))
            #expect(reported.status == 200)
        }
        let refused = try await Self.approve(harness, device, keyID, token: token)
        #expect(refused.status == 403)
        #expect(try refused.jsonValue()["error"] == "password_required")
        #expect(try await harness.logIn(identity: Self.identity, password: Self.password).response.status == 200)
        #expect(try await Self.approve(harness, device, keyID, token: token).status == 200)
    }

    @Test("a passkey login lifts password_required too")
    func passkeyLogin() async throws {
        var (harness, passkey, tokens, device, keyID) = try await Self.setUp()
        let token = try #require(tokens["access_token"]?.stringValue)
        _ = await harness.passkeys.client.post(
            "/device-events", json: ["device_id": "phone", "type": "biometric_failure", "attempts": 3],
            headers: Self.auth(token))
        #expect(try await Self.approve(harness, device, keyID, token: token).status == 403)
        #expect(try await harness.passkeys.logIn(&passkey).status == 200)
        #expect(try await Self.approve(harness, device, keyID, token: token).status == 200)
    }

    @Test("after key_invalidated, the replacement needs a recent passkey login: not a refreshed token, not a password")
    func biometryChange() async throws {
        let (harness, enrolled, tokens, _, keyID) = try await Self.setUp()
        var passkey = enrolled
        let token = try #require(tokens["access_token"]?.stringValue)
        let client = harness.passkeys.client
        let deviceKeys = harness.passkeys.context.tokens.deviceKeyAudience
        // Reported with the login's own token, minutes old: a fresh passkey login is proof enough.
        let invalidated = await client.post(
            "/device-events", json: ["device_id": "phone", "type": "key_invalidated"], headers: Self.auth(token))
        #expect(invalidated.status == 200)
        let userID = try #require(
            try await harness.store.read { try $0.passwordVerifier(realm: "main", identity: Self.identity) }?.userID)
        #expect(try await harness.store.read { try $0.deviceKey(id: keyID, userID: userID) }?.status == .revoked)
        let replacement = try TestDevice(deviceID: "phone")
        // A minute later, the refresh token (what a thief would hold) mints a device-key token.
        harness.clock.advance(60)
        let refreshed = try await harness.passkeys.refresh(
            try #require(tokens["refresh_token"]?.stringValue), audience: deviceKeys
        ).jsonValue()
        let refused = await client.post(
            "/device-keys", json: replacement.registration,
            headers: Self.auth(try #require(refreshed["access_token"]?.stringValue)))
        #expect(refused.status == 401)
        #expect(try refused.jsonValue()["error"] == "insufficient_user_authentication")
        // The password unlocks the vault on the device; it buys no device-key token at all.
        let srp = try await harness.logIn(identity: Self.identity, password: Self.password, audience: deviceKeys)
        #expect(srp.response.status == 403)
        #expect(srp.response.errorCode == "access_denied")
        // A passkey login with user verification enrols the replacement, as every key.
        let login = try await harness.passkeys.logIn(&passkey, audience: deviceKeys).jsonValue()
        let accepted = await client.post(
            "/device-keys", json: replacement.registration,
            headers: Self.auth(try #require(login["access_token"]?.stringValue)))
        #expect(accepted.status == 201, "\(accepted.bodyText)")
    }

    @Test("device-key approvals never take a password login for a passkey one: SRP tokens carry only amr pwd")
    func passwordIsNotAPasskey() async throws {
        let (harness, _, _, _, _) = try await Self.setUp()
        let body = try await harness.logIn(identity: Self.identity, password: Self.password).response.jsonValue()
        let subject = try await harness.passkeys.context.tokens.authenticate(
            Request(method: .get, target: "/", headers: Self.auth(try #require(body["access_token"]?.stringValue))))
        #expect(subject.authenticationMethods == ["pwd"])
        #expect(PasswordLogin.isPasswordLogin(subject.authenticationMethods))
        // The step-up rule (a user-verified passkey) refuses it.
        guard case .failure(let refusal) = FreshLoginRequirement(maxAge: 300).check(subject, now: harness.clock.now())
        else {
            Issue.record("a password login passed the passkey step-up")
            return
        }
        #expect(refusal == .userNotVerified)
    }
}
