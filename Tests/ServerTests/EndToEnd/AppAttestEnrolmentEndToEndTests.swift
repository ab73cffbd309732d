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

@Suite("Device-key enrolment with Apple App Attest through the daemon, under the client's required policy", .serialized)
struct AppAttestEnrolmentEndToEndTests {
    /// A daemon whose client `app` (iOS app `ABCDE12345.com.example.app`) requires an attestation, App Attest ones
    /// from `authority`'s root.
    static func start(_ authority: AppAttestAuthority, clock: TestClock) async throws -> (LiveServer, URL) {
        let rootFile = FileManager.default.temporaryDirectory.appendingPathComponent("roots-\(UUID().uuidString).pem")
        try authority.root.pemText.write(to: rootFile, atomically: true, encoding: .utf8)
        var environment = PasskeyHarness.overrides
        environment["PASSKEYD_CLIENTS"] = """
            [{"client_id": "app",
              "grant_types": ["urn:okta:params:oauth:grant-type:webauthn", "refresh_token"],
              "device_keys": {"attestation": "required"},
              "mobile": {"ios": {"team_id": "ABCDE12345", "app_bundle_identifier": "com.example.app"}}}]
            """
        environment["PASSKEYD_DEVICE_KEYS_APP_ATTEST_ROOTS"] = rootFile.path
        return (try await LiveServer.start(environment: environment, clock: clock), rootFile)
    }

    /// What an attacker or a broken app changes in an otherwise genuine enrolment.
    struct Change {
        var properties: (inout AppAttestAuthority.Properties) -> Void = { _ in }
        /// The client data names this nonce instead of the issued one.
        var clientDataNonce: String?
        /// The client data binds this key's point instead of the enrolled one's.
        var clientDataKey: [UInt8]?
    }

    /// Asks for an enrolment nonce, has `authority` attest client data binding it and `device`'s key, and enrols.
    static func enrol(
        _ server: LiveServer, _ token: String, _ device: TestDevice, _ authority: AppAttestAuthority,
        change: Change = Change()
    ) async throws -> (status: Int, headers: [String: String], body: JSONValue) {
        let issued = try await server.call("POST", "/device-keys/enrolment-challenge", token, JSONValue.object([]))
        let nonce = try #require(issued.body["nonce"]?.stringValue)
        let clientData = AppAttestAuthority.clientData(
            nonce: change.clientDataNonce ?? nonce,
            enrolledKey: change.clientDataKey ?? device.key.publicKey.x963Representation)
        var properties = AppAttestAuthority.Properties()
        change.properties(&properties)
        let object = try authority.attest(
            clientData: clientData, appAttestKey: try P256SigningKey(), properties: properties)
        let body = DeviceKeyEnrolmentEndToEndTests.adding(
            device.registration,
            [
                "attestation": [
                    // What an iOS app sends: Data.base64EncodedString() of the object, base64url of the client data.
                    "attestation_object": .string(Data(object).base64EncodedString()),
                    "client_data": .string(Base64URL.encode(clientData)),
                ],
                "enrolment_nonce": .string(nonce),
            ])
        return try await server.call("POST", "/device-keys", token, body)
    }

    @Test("a genuine App Attest enrolment is accepted and listed; a key without one and each negative are refused")
    func appAttest() async throws {
        let authority = try AppAttestAuthority()
        // A minute ahead: the certificates openssl issues are valid from the real now on.
        let clock = TestClock(realTimePlus: 60)
        let (server, rootFile) = try await Self.start(authority, clock: clock)
        defer { try? FileManager.default.removeItem(at: rootFile) }
        var alice = Passkey()
        _ = try await server.signUp(&alice, email: "alice@example.com")
        let token = try await server.freshAccessToken(&alice)

        let genuine = try await Self.enrol(server, token, try TestDevice(platform: "ios"), authority)
        #expect(genuine.status == 201)
        #expect(genuine.body["attestation"]?["platform"]?.stringValue == "apple-appattest")
        #expect(genuine.body["attestation"]?["level"]?.stringValue == "appattest")
        let listing = try await server.call("GET", "/device-keys", token)
        let listed = try #require(listing.body["keys"]?.arrayValue?.first?["attestation"])
        #expect(listed["platform"]?.stringValue == "apple-appattest")
        #expect(listed["level"]?.stringValue == "appattest")
        #expect(listed["verified_at"]?.stringValue != nil)

        let negatives: [(String, Change)] = [
            ("attestation_challenge_mismatch", Change(clientDataNonce: "Vq3uBCZ3r1cSTV3YxHkFxyXyzdT0n3lf4ZQv1sQ5a2c")),
            ("attestation_key_mismatch", Change(clientDataKey: try P256SigningKey().publicKey.x963Representation)),
            ("attestation_wrong_app", Change(properties: { $0.appID = "ZZZZZ99999.com.attacker.app" })),
            (
                "attestation_wrong_environment",
                Change(properties: { $0.aaguid = AppAttestAuthority.developmentAAGUID })
            ),
            ("attestation_counter_not_zero", Change(properties: { $0.counter = 1 })),
            (
                "attestation_credential_mismatch",
                Change(properties: { $0.credentialID = [UInt8](repeating: 7, count: 32) })
            ),
        ]
        for (code, change) in negatives {
            let refused = try await Self.enrol(server, token, try TestDevice(deviceID: code), authority, change: change)
            #expect(refused.status == 400, "\(code)")
            #expect(refused.body["error"]?.stringValue == "invalid_attestation", "\(code)")
        }
        let untrusted = try await Self.enrol(
            server, token, try TestDevice(deviceID: "untrusted"), try AppAttestAuthority())
        #expect(untrusted.status == 400)
        let missing = try await server.call(
            "POST", "/device-keys", token, try TestDevice(deviceID: "bare").registration)
        #expect(missing.status == 400)
        #expect(missing.body["error"]?.stringValue == "invalid_attestation")

        // Only the genuine key was enrolled; every refusal is a security event with its check's code, in the
        // history the app shows.
        let after = try await server.call("GET", "/device-keys", token)
        #expect(after.body["keys"]?.arrayValue?.count == 1)
        let reasons = try await server.securityEvents().filter { $0.outcome == "failure" }.compactMap(\.reasonCode)
        let expected = negatives.map(\.0) + ["attestation_untrusted", "attestation_required"]
        #expect(reasons == expected)
        let history = after.body["history"]?.arrayValue?.compactMap { $0["reason"]?.stringValue }
        #expect(history == expected.reversed() + ["new_device"])
        await server.stop()
    }
}
