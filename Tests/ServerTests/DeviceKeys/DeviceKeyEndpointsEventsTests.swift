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

@Suite("Device events: recorded with server time, lockout and invalidation policy (router level)")
struct DeviceKeyEndpointsEventsTests {
    static func post(_ harness: DeviceKeyHarness, _ body: JSONValue, _ auth: HTTPHeaders) async
        -> Response
    {
        await harness.client.post("/device-events", json: body, headers: auth)
    }

    @Test(
        "a biometric failure reporting 3 attempts makes the device's key wait for the password; the device time is kept as information"
    )
    func attemptsRequirePassword() async throws {
        let harness = try DeviceKeyHarness()
        let auth = try await harness.token()
        let keyID = try await harness.register(try TestDevice(deviceID: "phone"), auth)
        let other = try await harness.register(try TestDevice(deviceID: "tablet"), auth)
        let response = await Self.post(
            harness,
            [
                "device_id": "phone", "type": "biometric_failure", "attempts": 3,
                "occurred_at": "2020-01-01T00:00:00Z",
            ],
            auth)
        #expect(response.status == 200)
        let body = try response.jsonValue()
        #expect(body["received_at"]?.stringValue == "2027-01-15T08:00:00Z")
        #expect(body["keys"] == [["key_id": .string(keyID), "status": "active", "password_required": true]])
        // The key is not locked (signature failures lock); its approvals wait for the password.
        #expect(try await harness.storedKey(keyID)?.status == .active)
        #expect(try await harness.storedKey(other)?.status == .active)
        let events = try await harness.events()
        let reported = try #require(events.first { $0.kind == "biometric_failure" })
        #expect(reported.occurredAt == harness.clock.now())
        #expect(reported.deviceTime == Date(timeIntervalSince1970: 1_577_836_800))
        #expect(reported.attempts == 3)
        #expect(reported.outcome == "reported")
        #expect(reported.deviceID == "phone")
        let required = try #require(events.first { $0.kind == "device_key_password_required" })
        #expect(required.keyID == keyID)
        #expect(required.reasonCode == "biometric_failures")
        #expect(required.attempts == 3)
    }

    @Test(
        "three separate biometric failures require the password; a success below the limit resets the count, not above it"
    )
    func separateFailures() async throws {
        let harness = try DeviceKeyHarness()
        let auth = try await harness.token()
        let device = try TestDevice(deviceID: "phone")
        let keyID = try await harness.register(device, auth)
        func report(_ type: String) async throws -> JSONValue? {
            let response = await Self.post(harness, ["device_id": "phone", "type": .string(type)], auth)
            #expect(response.status == 200)
            return try response.jsonValue()["keys"]?.arrayValue?.first?["password_required"]
        }
        // Two failures, then a success: the count starts again.
        for type in ["biometric_failure", "biometric_failure", "biometric_success", "password_fallback"] {
            #expect(try await report(type) == false)
        }
        #expect(try await report("biometric_failure") == false)
        #expect(try await report("biometric_failure") == false)
        #expect(try await report("biometric_failure") == true)
        // Above the limit a reported success changes nothing: only a login lifts it.
        #expect(try await report("biometric_success") == true)
        let challenge = try await harness.challenge(keyID, auth)
        let refused = await harness.approve(
            keyID, challengeID: challenge.id, signature: try device.sign(challenge: challenge.challenge), auth)
        #expect(refused.status == 403)
        #expect(try refused.jsonValue()["error"] == "password_required")
        #expect(try await harness.storedKey(keyID)?.failedAttempts == 0)
        let kinds = try await harness.events().map(\.kind).filter { $0 != "device_key_registered" }
        #expect(
            kinds == [
                "biometric_failure", "biometric_failure", "biometric_success", "password_fallback",
                "biometric_failure", "biometric_failure", "biometric_failure", "device_key_password_required",
                "biometric_success", "device_challenge", "device_approval",
            ])
    }

    @Test("key_invalidated (biometry changed) revokes the device's key")
    func invalidated() async throws {
        let harness = try DeviceKeyHarness()
        let auth = try await harness.token()
        let keyID = try await harness.register(try TestDevice(deviceID: "phone"), auth)
        let response = await Self.post(
            harness, ["device_id": "phone", "type": "key_invalidated"], auth)
        #expect(
            try response.jsonValue()["keys"] == [
                ["key_id": .string(keyID), "status": "revoked", "password_required": false]
            ])
        let revocation = try #require(try await harness.events().last)
        #expect(revocation.kind == "device_key_revoked")
        #expect(revocation.reasonCode == "key_invalidated")
    }

    @Test("events of another user's device touch nothing of this user")
    func otherUser() async throws {
        let harness = try DeviceKeyHarness()
        let keyID = try await harness.register(
            try TestDevice(deviceID: "phone"), try await harness.token("user-a"))
        let response = await Self.post(
            harness, ["device_id": "phone", "type": "key_invalidated"], try await harness.token("user-b"))
        #expect(try response.jsonValue()["keys"] == [])
        #expect(try await harness.storedKey(keyID)?.status == .active)
    }

    @Test(
        "a malformed event is 400 invalid_request",
        arguments: [
            #"{"type":"biometric_failure"}"#, #"{"device_id":"p"}"#,
            #"{"device_id":"p","type":"face_seen"}"#,
            #"{"device_id":"p","type":"biometric_failure","attempts":-1}"#,
            #"{"device_id":"p","type":"biometric_failure","attempts":1.5}"#,
            #"{"device_id":"p","type":"biometric_failure","attempts":"3"}"#,
            #"{"device_id":"p","type":"biometric_failure","occurred_at":"yesterday"}"#,
            #"{"device_id":"p","type":"biometric_failure","occurred_at":true}"#,
        ])
    func malformed(body: String) async throws {
        let harness = try DeviceKeyHarness()
        let response = await harness.client.post(
            "/device-events", body: Array(body.utf8), contentType: "application/json",
            headers: try await harness.token())
        #expect(response.status == 400)
        #expect(response.errorCode == "invalid_request")
    }
}
