import Crypto
import Foundation
import HTTP
import Storage
import TestSupport
import Testing
import Tokens

@testable import Commands
@testable import Endpoints
@testable import Service
@testable import passkeyd

@Suite("Device keys: the enrolment step-up and the device-key audience (router level)")
struct DeviceKeyEnrolmentStepUpTests {
    /// Posts `device`'s registration with `auth`.
    static func enrol(_ harness: DeviceKeyHarness, _ device: TestDevice, _ auth: HTTPHeaders) async -> Response {
        await harness.client.post("/device-keys", json: device.registration, headers: auth)
    }

    /// The newest security event.
    static func lastEvent(_ harness: DeviceKeyHarness) async throws -> SecurityEvent {
        try #require(try await harness.events().last)
    }

    @Test("a token minted by the refresh grant never enrols: 401 insufficient_user_authentication, recorded")
    func refreshDerivedToken() async throws {
        let harness = try DeviceKeyHarness()
        let login = harness.clock.now()
        harness.clock.advance(60)
        // What the refresh grant mints: the original auth_time, iat now, amr hwk only; and the same with `user`
        // kept, which the rule refuses by iat alone.
        for methods in [["hwk"], ["hwk", "user"]] {
            let auth = try await harness.token(authTime: login, issuedAt: harness.clock.now(), methods: methods)
            let response = await Self.enrol(harness, try TestDevice(), auth)
            #expect(response.status == 401)
            #expect(response.errorCode == "insufficient_user_authentication")
            let challenge = try #require(response.headers["WWW-Authenticate"])
            #expect(challenge.contains("error=\"insufficient_user_authentication\""))
            #expect(challenge.contains("max_age=\"300\""))
            let event = try await Self.lastEvent(harness)
            #expect(event.kind == "device_key_registered" && event.outcome == "failure")
            #expect(event.reasonCode == FreshLoginRefusal.notMintedByLogin.rawValue)
            #expect(event.deviceID == "phone-1" && event.userID == "user-a")
        }
        #expect(try await harness.store.read { try $0.deviceKeys(userID: "user-a") }.isEmpty)
    }

    @Test("a login older than device_keys.enrolment_max_age_seconds is refused; within it, it enrols")
    func staleLogin() async throws {
        let harness = try DeviceKeyHarness(["PASSKEYD_DEVICE_KEYS_ENROLMENT_MAX_AGE_SECONDS": "120"])
        let login = harness.clock.now()
        let auth = try await harness.token(authTime: login)
        harness.clock.advance(121)
        let stale = await Self.enrol(harness, try TestDevice(), auth)
        #expect(stale.status == 401)
        #expect(stale.headers["WWW-Authenticate"]?.contains("max_age=\"120\"") == true)
        #expect(try await Self.lastEvent(harness).reasonCode == FreshLoginRefusal.loginTooOld.rawValue)
        let fresh = await Self.enrol(harness, try TestDevice(), try await harness.token())
        #expect(fresh.status == 201)
    }

    @Test("a login without user verification, or by password alone, does not enrol")
    func noUserVerification() async throws {
        let harness = try DeviceKeyHarness()
        // A password login is refused before the step-up is judged (`PasswordLogin`), a passkey without UV by it.
        for (methods, reason) in [
            (["hwk"], FreshLoginRefusal.userNotVerified.rawValue), (["pwd"], "password_login_for_device_keys"),
        ] {
            let response = await Self.enrol(harness, try TestDevice(), try await harness.token(methods: methods))
            #expect(response.status == 401)
            #expect(try await Self.lastEvent(harness).reasonCode == reason)
        }
    }

    /// A phone enrolled with a passkey login whose key a biometry change then invalidated (`key_invalidated`).
    static func invalidatedPhone(_ harness: DeviceKeyHarness) async throws -> TestDevice {
        let phone = try TestDevice()
        _ = try await harness.register(phone, try await harness.token())
        let invalidated = await harness.client.post(
            "/device-events", json: ["device_id": .string(phone.deviceID), "type": "key_invalidated"],
            headers: try await harness.token())
        #expect(invalidated.status == 200)
        return phone
    }

    @Test("after a biometry change a password login enrols nothing, not even on that device; a passkey login does")
    func passwordAfterBiometryChange() async throws {
        let harness = try DeviceKeyHarness()
        let phone = try await Self.invalidatedPhone(harness)
        let password = try await harness.token(methods: ["pwd"])
        for deviceID in ["tablet", phone.deviceID] {
            let refused = await Self.enrol(harness, try TestDevice(deviceID: deviceID), password)
            #expect(refused.status == 401)
            #expect(refused.errorCode == "insufficient_user_authentication")
        }
        let again = await Self.enrol(harness, try TestDevice(deviceID: phone.deviceID), try await harness.token())
        #expect(again.status == 201)
    }

    @Test("a token without the device-key audience is refused by every device-key endpoint: 401 invalid_token")
    func wrongAudience() async throws {
        let harness = try DeviceKeyHarness()
        let keyID = try await harness.register(try TestDevice(), try await harness.token())
        // A token for another API that names the issuer too (what `openid` adds), and the issuer's own API alone.
        for audience in [
            ["https://payments.example.com/", "https://auth.example.com/"], ["https://auth.example.com/"],
        ] {
            let auth = try await harness.token(audience: audience)
            let enrol = await Self.enrol(harness, try TestDevice(deviceID: "attacker"), auth)
            #expect(enrol.status == 401)
            #expect(enrol.errorCode == "invalid_token")
            let event = try await Self.lastEvent(harness)
            #expect(event.reasonCode == "token_invalid_audience" && event.userID == "user-a")
            #expect(await harness.client.get("/device-keys", headers: auth).status == 401)
            let challenge = await harness.client.post(
                "/device-keys/\(keyID)/challenges", json: ["action": DeviceKeyHarness.transfer], headers: auth)
            #expect(challenge.status == 401)
        }
        #expect(harness.context.tokens.deviceKeyAudience == "https://auth.example.com/device-keys")
    }

    @Test("enrolments, replacements and refusals show in GET /device-keys history, newest first")
    func history() async throws {
        let harness = try DeviceKeyHarness()
        let auth = try await harness.token()
        let first = try await harness.register(try TestDevice(), auth)
        harness.clock.advance(1)
        let second = try await harness.register(try TestDevice(), auth)
        harness.clock.advance(1)
        _ = await Self.enrol(harness, try TestDevice(deviceID: "tablet"), try await harness.token(methods: ["hwk"]))
        let response = await harness.client.get("/device-keys", headers: auth)
        let history = try #require(try response.jsonValue()["history"]?.arrayValue)
        let summary = history.map {
            [$0["type"]?.stringValue, $0["outcome"]?.stringValue, $0["reason"]?.stringValue, $0["key_id"]?.stringValue]
        }
        #expect(
            summary == [
                ["device_key_registered", "failure", "login_without_user_verification", nil],
                ["device_key_revoked", "success", "replaced", first],
                ["device_key_registered", "success", "replacement", second],
                ["device_key_registered", "success", "new_device", first],
            ])
    }
}
