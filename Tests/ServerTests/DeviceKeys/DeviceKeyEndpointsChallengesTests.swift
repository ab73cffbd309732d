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

@Suite("Device keys: challenges (router level)")
struct DeviceKeyEndpointsChallengesTests {
    @Test(
        "201: challenge is base64url of the JCS document binding sub, key, id, nonce, times and the action hash"
    )
    func issues() async throws {
        let harness = try DeviceKeyHarness()
        let auth = try await harness.token()
        let keyID = try await harness.register(try TestDevice(), auth)
        let response = await harness.client.post(
            "/device-keys/\(keyID)/challenges", json: ["action": DeviceKeyHarness.transfer], headers: auth
        )
        #expect(response.status == 201)
        let body = try response.jsonValue()
        #expect(
            body.objectMembers?.map(\.key).sorted() == [
                "action", "challenge", "challenge_id", "expires_in",
            ])
        #expect(body["expires_in"]?.intValue == 120)
        // The action comes back in its canonical form: members sorted (RFC 8785 §3.2.3).
        let canonicalAction = try JCS.canonicalBytes(DeviceKeyHarness.transfer)
        #expect(body["action"]?.serialized() == canonicalAction)
        let challenge = try #require(body["challenge"]?.stringValue)
        let documentBytes = try #require(Base64URL.decode(challenge))
        let document = try JSONValue(parsing: documentBytes)
        // The bytes are already canonical: what the device signs is exactly what JCS produces.
        #expect(try JCS.canonicalBytes(document) == documentBytes)
        #expect(
            document.objectMembers?.map(\.key) == [
                "action_sha256", "challenge_id", "exp", "iat", "iss", "key_id", "nonce", "sub", "v",
            ])
        #expect(document["v"]?.intValue == 1)
        #expect(document["iss"]?.stringValue == harness.context.configuration.issuer)
        #expect(document["sub"]?.stringValue == "user-a")
        #expect(document["key_id"]?.stringValue == keyID)
        #expect(document["challenge_id"] == body["challenge_id"])
        #expect(document["iat"]?.intValue == 1_800_000_000)
        #expect(document["exp"]?.intValue == 1_800_000_120)
        #expect(Base64URL.decode(document["nonce"]?.stringValue ?? "")?.count == 32)
        #expect(
            document["action_sha256"]?.stringValue == Base64URL.encode(Digest.sha256(canonicalAction)))
        let issued = try #require(try await harness.events().last)
        #expect(issued.kind == "device_challenge")
        #expect(issued.outcome == "success")
        #expect(issued.actionHash == Digest.sha256(canonicalAction))
    }

    @Test("two challenges for the same action differ (fresh id and nonce)")
    func fresh() async throws {
        let harness = try DeviceKeyHarness()
        let auth = try await harness.token()
        let keyID = try await harness.register(try TestDevice(), auth)
        let first = try await harness.challenge(keyID, auth)
        let second = try await harness.challenge(keyID, auth)
        #expect(first.id != second.id)
        #expect(first.challenge != second.challenge)
    }

    @Test("the lifetime follows device_keys.challenge_lifetime_seconds")
    func configurableLifetime() async throws {
        let harness = try DeviceKeyHarness(["PASSKEYD_DEVICE_KEYS_CHALLENGE_LIFETIME_SECONDS": "30"])
        let auth = try await harness.token()
        let keyID = try await harness.register(try TestDevice(), auth)
        let response = await harness.client.post(
            "/device-keys/\(keyID)/challenges", json: ["action": DeviceKeyHarness.transfer], headers: auth
        )
        #expect(try response.jsonValue()["expires_in"]?.intValue == 30)
    }

    static let deep: JSONValue = ["type": "t", "a": ["b": ["c": ["d": ["e": ["f": "g"]]]]]]
    static let long: JSONValue = ["type": "t", "note": .string(String(repeating: "x", count: 256))]
    static let wide: JSONValue = .object(
        [JSONMember(key: "type", value: "t")] + (0..<32).map { JSONMember(key: "m\($0)", value: 1) })
    static let big: JSONValue = [
        "type": "t",
        "a": .array(Array(repeating: .string(String(repeating: "x", count: 250)), count: 17)),
    ]

    @Test(
        "an action outside the limits is 400 invalid_authorization_details naming the limit",
        arguments: [
            ("[1]", "JSON object"), (#""transfer""#, "JSON object"), (#"{"amount":"1"}"#, "type"),
            (#"{"type":""}"#, "type"), (#"{"type":7}"#, "type"),
            (String(decoding: deep.serialized(), as: UTF8.self), "deeper than 5"),
            (String(decoding: long.serialized(), as: UTF8.self), "longer than 255"),
            (String(decoding: wide.serialized(), as: UTF8.self), "more than 32"),
            (String(decoding: big.serialized(), as: UTF8.self), "larger than 4096"),
            (#"{"type":"t","n":1e400}"#, "not valid JSON"),
        ])
    func refusesActions(action: String, naming: String) async throws {
        let harness = try DeviceKeyHarness()
        let auth = try await harness.token()
        let keyID = try await harness.register(try TestDevice(), auth)
        let body = Array(#"{"action":"#.utf8) + Array(action.utf8) + [UInt8(ascii: "}")]
        let response = await harness.client.post(
            "/device-keys/\(keyID)/challenges", body: body, contentType: "application/json", headers: auth
        )
        #expect(response.status == 400)
        #expect(response.errorCode == "invalid_authorization_details")
        let description = try response.jsonValue()["error_description"]?.stringValue ?? ""
        #expect(description.contains(naming), "\(description)")
        let refusal = try #require(try await harness.events().last)
        #expect(refusal.kind == "device_challenge")
        #expect(refusal.outcome == "failure")
        #expect(refusal.reasonCode == "device_action_invalid")
    }

    @Test("a missing action is 400 invalid_request")
    func missingAction() async throws {
        let harness = try DeviceKeyHarness()
        let auth = try await harness.token()
        let keyID = try await harness.register(try TestDevice(), auth)
        let response = await harness.client.post(
            "/device-keys/\(keyID)/challenges", json: ["x": 1], headers: auth)
        #expect(response.status == 400)
        #expect(response.errorCode == "invalid_request")
    }

    @Test(
        "another user's key is 404; a locked key is 403 key_locked; a revoked key is 403 key_revoked")
    func refusesKeys() async throws {
        let harness = try DeviceKeyHarness()
        let alice = try await harness.token("user-a")
        let keyID = try await harness.register(try TestDevice(), alice)
        let byBob = await harness.client.post(
            "/device-keys/\(keyID)/challenges", json: ["action": DeviceKeyHarness.transfer],
            headers: try await harness.token("user-b"))
        #expect(byBob.status == 404)
        #expect(byBob.errorCode == "not_found")
        _ = try await harness.store.write { writer in
            try writer.updateDeviceKeyState(
                keyID: keyID, userID: "user-a",
                state: DeviceKeyState(
                    status: .locked, failedAttempts: 3, lockedAt: Date(timeIntervalSince1970: 1)))
        }
        let locked = await harness.client.post(
            "/device-keys/\(keyID)/challenges", json: ["action": DeviceKeyHarness.transfer],
            headers: alice)
        #expect(locked.status == 403)
        #expect(locked.errorCode == "key_locked")
        #expect(await harness.client.delete("/device-keys/\(keyID)", headers: alice).status == 204)
        let revoked = await harness.client.post(
            "/device-keys/\(keyID)/challenges", json: ["action": DeviceKeyHarness.transfer],
            headers: alice)
        #expect(revoked.status == 403)
        #expect(revoked.errorCode == "key_revoked")
    }
}
