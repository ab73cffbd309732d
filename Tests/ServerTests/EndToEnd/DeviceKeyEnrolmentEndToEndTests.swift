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

@Suite("Device-key enrolment through the daemon: step-up against a stolen token, Android key attestation", .serialized)
struct DeviceKeyEnrolmentEndToEndTests {
    static let transfer: JSONValue = [
        "type": "transfer", "amount": "9999.00", "currency": "EUR",
        "creditor_account": "DE89370400440532013000",
    ]

    /// `body` with `members` added.
    static func adding(_ body: JSONValue, _ members: [String: JSONValue]) -> JSONValue {
        .object(
            (body.objectMembers ?? [])
                + members.sorted { $0.key < $1.key }.map { JSONMember(key: $0.key, value: $0.value) })
    }

    @Test(
        "the stolen-token scenario: a refresh-derived token, a stale login and a token for another API cannot enrol; a fresh login can"
    )
    func stolenToken() async throws {
        let clock = TestClock(Date())
        let server = try await LiveServer.startForDeviceKeys(clock: clock)
        var alice = Passkey()
        _ = try await server.signUp(&alice, email: "alice@example.com")
        let login = try await server.login(&alice)
        let token = try #require(login["access_token"]?.stringValue)
        let refreshToken = try #require(login["refresh_token"]?.stringValue)
        let phone = try TestDevice(deviceID: "victim-phone")
        let enrolled = try await server.call("POST", "/device-keys", token, phone.registration)
        #expect(enrolled.status == 201)
        let victimKey = try #require(enrolled.body["key_id"]?.stringValue)

        // The attacker holds only the refresh token (valid 30 days): it mints a device-key token through the
        // refresh grant a minute later and tries to enrol its own key on the victim's device id.
        clock.advance(60)
        let deviceKeyAudience = server.running.context.tokens.deviceKeyAudience
        let refreshed = try await server.refresh(refreshToken, audience: deviceKeyAudience)
        #expect(refreshed.status == 200)
        let stolen = try #require(refreshed.body["access_token"]?.stringValue)
        let attacker = try TestDevice(deviceID: "victim-phone")
        let refused = try await server.call("POST", "/device-keys", stolen, attacker.registration)
        #expect(refused.status == 401)
        #expect(refused.body["error"]?.stringValue == "insufficient_user_authentication")
        let challenge = refused.headers.first { $0.key.lowercased() == "www-authenticate" }?.value
        #expect(challenge?.contains("max_age=\"300\"") == true)
        // The refresh-derived token keeps the original auth_time and amr (the login's): only its iat tells it apart.
        let claims = try await server.verifierFromJWKS().verify(
            stolen,
            expecting: .init(
                type: "at+jwt", issuer: server.running.context.configuration.issuer,
                audience: deviceKeyAudience, now: clock.now()))
        #expect(claims.payload["amr"]?.arrayValue?.compactMap(\.stringValue) == ["hwk", "user"])
        #expect(claims.payload["iat"]?.intValue != claims.payload["auth_time"]?.intValue)

        // A stale login: the original token (still unexpired), just over five minutes after its login.
        clock.advance(241)
        let stale = try await server.call("POST", "/device-keys", token, attacker.registration)
        #expect(stale.status == 401)

        // A token minted for another API: the issuer's own (what /userinfo takes).
        let other = try await server.login(&alice, audience: server.running.context.configuration.issuer)
        let otherToken = try #require(other["access_token"]?.stringValue)
        let wrongAudience = try await server.call("POST", "/device-keys", otherToken, attacker.registration)
        #expect(wrongAudience.status == 401)
        #expect(wrongAudience.body["error"]?.stringValue == "invalid_token")
        #expect(try await server.call("GET", "/device-keys", otherToken).status == 401)

        // Nothing was enrolled: the victim's key is still the one active key and no challenge can be had for
        // another; the history tells the app about every refused attempt.
        let fresh = try await server.freshAccessToken(&alice)
        let listing = try await server.call("GET", "/device-keys", fresh)
        let keys = try #require(listing.body["keys"]?.arrayValue)
        #expect(keys.map { $0["key_id"]?.stringValue } == [victimKey])
        #expect(keys.first?["status"]?.stringValue == "active")
        let history = try #require(listing.body["history"]?.arrayValue)
        #expect(
            history.map { $0["reason"]?.stringValue } == [
                "token_invalid_audience", "login_too_old", "token_not_from_login", "new_device",
            ])

        // The legitimate user, just logged in with the passkey, replaces the phone's key.
        let replaced = try await server.call("POST", "/device-keys", fresh, attacker.registration)
        #expect(replaced.status == 201)
        let after = try await server.call("GET", "/device-keys", fresh)
        #expect(after.body["history"]?.arrayValue?.first?["reason"]?.stringValue == "replaced")
        await server.stop()
    }

    /// A daemon whose client `app` requires an Android Key Attestation from `authority`'s root.
    static func startRequiringAttestation(_ authority: AndroidAttestationAuthority, clock: TestClock) async throws
        -> (LiveServer, URL)
    {
        let rootFile = FileManager.default.temporaryDirectory.appendingPathComponent("roots-\(UUID().uuidString).pem")
        try authority.rootPEM.write(to: rootFile, atomically: true, encoding: .utf8)
        var environment = PasskeyHarness.overrides
        environment["PASSKEYD_CLIENTS"] = """
            [{"client_id": "app",
              "grant_types": ["urn:okta:params:oauth:grant-type:webauthn", "refresh_token"],
              "device_keys": {"attestation": "required"},
              "mobile": {
                "ios": {"team_id": "ABCDE12345", "app_bundle_identifier": "com.example.app"},
                "android": {"app_package_name": "com.example.app",
                  "sha256_cert_fingerprints": ["\(PasskeyHarness.fingerprint)"]}}}]
            """
        environment["PASSKEYD_DEVICE_KEYS_ANDROID_ATTESTATION_ROOTS"] = rootFile.path
        return (try await LiveServer.start(environment: environment, clock: clock), rootFile)
    }

    /// Asks for an enrolment nonce and enrols `device` with a chain from `authority` for `change`d properties.
    static func enrol(
        _ server: LiveServer, _ token: String, _ device: TestDevice, _ authority: AndroidAttestationAuthority,
        leafKey: P256SigningKey? = nil, change: (inout AndroidAttestationAuthority.Properties) -> Void = { _ in }
    ) async throws -> (status: Int, headers: [String: String], body: JSONValue) {
        let issued = try await server.call("POST", "/device-keys/enrolment-challenge", token, JSONValue.object([]))
        let nonce = try #require(issued.body["nonce"]?.stringValue)
        var properties = AndroidAttestationAuthority.Properties(challenge: try #require(Base64URL.decode(nonce)))
        change(&properties)
        let chain = try authority.issue(leafKey: leafKey ?? device.key, properties: properties)
        // Android's Base64.encodeToString: standard alphabet, padded.
        let body = adding(
            device.registration,
            [
                "attestation": .array(chain.map { .string(Data($0).base64EncodedString()) }),
                "enrolment_nonce": .string(nonce),
            ])
        return try await server.call("POST", "/device-keys", token, body)
    }

    @Test("Android Key Attestation through the daemon: a genuine key enrols with its level; each negative is refused")
    func androidAttestation() async throws {
        let authority = try AndroidAttestationAuthority()
        // A minute ahead: the leaves openssl issues are valid from the real now on.
        let clock = TestClock(realTimePlus: 60)
        let (server, rootFile) = try await Self.startRequiringAttestation(authority, clock: clock)
        defer { try? FileManager.default.removeItem(at: rootFile) }
        var alice = Passkey()
        _ = try await server.signUp(&alice, email: "alice@example.com")
        let token = try await server.freshAccessToken(&alice)

        let genuine = try await Self.enrol(server, token, try TestDevice(platform: "android"), authority)
        #expect(genuine.status == 201)
        #expect(genuine.body["attestation"]?["platform"]?.stringValue == "android-key-attestation")
        #expect(genuine.body["attestation"]?["level"]?.stringValue == "strongbox")
        let listing = try await server.call("GET", "/device-keys", token)
        #expect(
            listing.body["keys"]?.arrayValue?.first?["attestation"]?["verified_boot_state"]?.stringValue == "verified")

        let negatives: [(String, (inout AndroidAttestationAuthority.Properties) -> Void)] = [
            ("attestation_challenge_mismatch", { $0.challenge = [UInt8](repeating: 0, count: 32) }),
            ("attestation_software_level", { $0.securityLevel = 0 }),
            ("attestation_wrong_app", { $0.packageName = "com.attacker.app" }),
            ("attestation_wrong_signature", { $0.signatureDigest = [UInt8](repeating: 0xCD, count: 32) }),
            ("attestation_key_properties", { $0.authTimeout = 300 }),
        ]
        for (code, change) in negatives {
            let refused = try await Self.enrol(
                server, token, try TestDevice(deviceID: code, platform: "android"), authority, change: change)
            #expect(refused.status == 400, "\(code)")
            #expect(refused.body["error"]?.stringValue == "invalid_attestation", "\(code)")
        }
        let unrelated = try await Self.enrol(
            server, token, try TestDevice(deviceID: "unrelated", platform: "android"), authority,
            leafKey: try P256SigningKey())
        #expect(unrelated.status == 400)
        let missing = try await server.call(
            "POST", "/device-keys", token, try TestDevice(deviceID: "bare", platform: "android").registration)
        #expect(missing.status == 400)
        #expect(missing.body["error"]?.stringValue == "invalid_attestation")

        // A leaf valid for one day (from the real now), verified two days later by the daemon's clock.
        clock.advance(2 * 86_400)
        let later = try await server.freshAccessToken(&alice)
        let expired = try await Self.enrol(
            server, later, try TestDevice(deviceID: "expired", platform: "android"), authority,
            change: { $0.leafDays = 1 })
        #expect(expired.status == 400)
        #expect(expired.body["error_description"]?.stringValue?.contains("expired") == true)

        // Every refusal is in the store, with its check's code.
        let reasons = try await server.securityEvents().filter { $0.outcome == "failure" }.compactMap(\.reasonCode)
        #expect(
            reasons == negatives.map(\.0) + ["attestation_key_mismatch", "attestation_required", "attestation_expired"])
        await server.stop()
    }
}
