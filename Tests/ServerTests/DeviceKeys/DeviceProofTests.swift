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

/// What only the device may do (revoke its key, report its invalidation, reach the biometric lockout) needs proof of
/// the device or a fresh user-verified passkey login; a bare bearer token — a refreshed one, as a thief of the refresh
/// token holds — does none of it (`DeviceProof`).
@Suite("Device proof for destructive device operations (router level)")
struct DeviceProofTests {
    /// A token a stolen refresh token buys: minted a minute after its login, so not a fresh login.
    static func refreshed(_ harness: DeviceKeyHarness, boundTo prover: DPoPProver? = nil) async throws -> String {
        let now = harness.clock.now()
        return try await harness.accessToken(
            authTime: now.addingTimeInterval(-60), issuedAt: now, boundTo: prover)
    }

    static func bearer(_ token: String) -> HTTPHeaders { ["Authorization": "Bearer \(token)"] }

    static func event(_ type: String, device: String = "phone", attempts: Int? = nil, proof: JSONValue? = nil)
        -> JSONValue
    {
        var members = [
            JSONMember(key: "device_id", value: .string(device)), JSONMember(key: "type", value: .string(type)),
        ]
        if let attempts { members.append(JSONMember(key: "attempts", value: JSONValue(attempts))) }
        if let proof { members.append(JSONMember(key: "device_proof", value: proof)) }
        return .object(members)
    }

    /// `DELETE /device-keys/{keyID}` with a JSON body.
    static func delete(_ harness: DeviceKeyHarness, _ keyID: String, body: JSONValue, headers: HTTPHeaders) async
        -> Response
    {
        var all = headers
        all.add(name: "Content-Type", value: "application/json")
        return await harness.client.execute(
            .delete, "/device-keys/\(keyID)", headers: all, body: body.serialized())
    }

    /// A signed device-proof challenge of `device`'s key for `operation`: the `device_proof` member.
    static func signedProof(
        _ harness: DeviceKeyHarness, _ device: TestDevice, keyID: String, operation: String, auth: HTTPHeaders
    ) async throws -> JSONValue {
        let (id, challenge) = try await harness.challenge(
            keyID, auth, action: ["type": "passkeyd:device_proof", "operation": .string(operation)])
        return ["challenge_id": .string(id), "signature": .string(try device.sign(challenge: challenge))]
    }

    @Test("key_invalidated with a bare refreshed token is 403 device_proof_required: the key stays active, recorded")
    func invalidationNeedsProof() async throws {
        let harness = try DeviceKeyHarness()
        let keyID = try await harness.register(try TestDevice(deviceID: "phone"), try await harness.token())
        let thief = Self.bearer(try await Self.refreshed(harness))
        let response = await harness.client.post("/device-events", json: Self.event("key_invalidated"), headers: thief)
        #expect(response.status == 403)
        #expect(response.errorCode == "device_proof_required")
        #expect(try await harness.storedKey(keyID)?.status == .active)
        let events = try await harness.events()
        #expect(!events.contains { $0.kind == "key_invalidated" && $0.outcome == "reported" })
        let refusal = try #require(events.last)
        #expect(refusal.kind == "key_invalidated")
        #expect(refusal.outcome == "failure")
        #expect(refusal.reasonCode == "device_proof_required")
        // A device without a live key has nothing to take: the report is recorded as before.
        let other = await harness.client.post(
            "/device-events", json: Self.event("key_invalidated", device: "no-such-device"), headers: thief)
        #expect(other.status == 200)
    }

    @Test("biometric failures below the lockout are counted with a bare token; the one that reaches it needs proof")
    func lockoutNeedsProof() async throws {
        let harness = try DeviceKeyHarness()
        let keyID = try await harness.register(try TestDevice(deviceID: "phone"), try await harness.token())
        let thief = Self.bearer(try await Self.refreshed(harness))
        for _ in 0..<2 {
            let counted = await harness.client.post(
                "/device-events", json: Self.event("biometric_failure"), headers: thief)
            #expect(counted.status == 200)
            #expect(try counted.jsonValue()["keys"]?.arrayValue?.first?["password_required"] == false)
        }
        let third = await harness.client.post("/device-events", json: Self.event("biometric_failure"), headers: thief)
        #expect(third.status == 403)
        #expect(third.errorCode == "device_proof_required")
        // Nothing counted: the count stays below the lockout, so the key still approves.
        let counter = try await harness.store.read {
            try $0.fallbackCounter(key: FallbackCounterKey.biometric(keyID: keyID))
        }
        #expect(counter?.count == 2)
        // One report of 3 attempts at once is the same lockout, refused the same way.
        let atOnce = await harness.client.post(
            "/device-events", json: Self.event("biometric_failure", attempts: 3), headers: thief)
        #expect(atOnce.errorCode == "device_proof_required")
        // The app itself, with a fresh passkey login, reaches it.
        let genuine = await harness.client.post(
            "/device-events", json: Self.event("biometric_failure"), headers: try await harness.token())
        #expect(genuine.status == 200)
        #expect(try genuine.jsonValue()["keys"]?.arrayValue?.first?["password_required"] == true)
    }

    @Test("DELETE of a live key: 403 without proof, 204 after a fresh user-verified passkey login (a lost phone)")
    func deleteNeedsProofOrFreshLogin() async throws {
        let harness = try DeviceKeyHarness()
        let keyID = try await harness.register(try TestDevice(deviceID: "phone"), try await harness.token())
        let refused = await harness.client.delete(
            "/device-keys/\(keyID)", headers: Self.bearer(try await Self.refreshed(harness)))
        #expect(refused.status == 403)
        #expect(refused.errorCode == "device_proof_required")
        #expect(try await harness.storedKey(keyID)?.status == .active)
        // A login without user verification is no proof either.
        let unverified = await harness.client.delete(
            "/device-keys/\(keyID)", headers: try await harness.token(methods: ["hwk"]))
        #expect(unverified.errorCode == "device_proof_required")
        let deleted = await harness.client.delete("/device-keys/\(keyID)", headers: try await harness.token())
        #expect(deleted.status == 204)
        #expect(try await harness.storedKey(keyID)?.status == .revoked)
        let event = try #require(try await harness.events().last { $0.kind == "device_key_revoked" })
        #expect(event.reasonCode == "deleted")
        #expect(event.detail.map { String(decoding: $0, as: UTF8.self) }?.contains(#""proof":"fresh_login""#) == true)
    }

    @Test("a DPoP proof by the key bound at enrolment proves the device; another DPoP key does not")
    func boundDPoPKey() async throws {
        let harness = try DeviceKeyHarness()
        let appKey = try DPoPProver()
        let device = try TestDevice(deviceID: "phone")
        // Enrolled with a fresh passkey login's DPoP-bound token: the key is bound to the app's DPoP key.
        let enrolment = try await harness.accessToken(boundTo: appKey)
        let keyID = try await harness.register(
            device, try harness.dpopHeaders("POST", "/device-keys", token: enrolment, prover: appKey))
        #expect(try await harness.storedKey(keyID)?.dpopThumbprint == appKey.thumbprint)
        // Another DPoP key, with a refreshed token bound to it: no proof.
        let stranger = try DPoPProver()
        let strangerToken = try await Self.refreshed(harness, boundTo: stranger)
        let refused = await harness.client.post(
            "/device-events", json: Self.event("key_invalidated"),
            headers: try harness.dpopHeaders("POST", "/device-events", token: strangerToken, prover: stranger))
        #expect(refused.errorCode == "device_proof_required")
        // The app's own key, after a biometry change (its refreshed token, no passkey login): accepted.
        let appToken = try await Self.refreshed(harness, boundTo: appKey)
        let accepted = await harness.client.post(
            "/device-events", json: Self.event("key_invalidated"),
            headers: try harness.dpopHeaders("POST", "/device-events", token: appToken, prover: appKey))
        #expect(accepted.status == 200, "\(accepted.bodyText)")
        #expect(try await harness.storedKey(keyID)?.status == .revoked)
    }

    @Test("a signed device-proof challenge proves the device for its operation only, once")
    func signatureProof() async throws {
        let harness = try DeviceKeyHarness()
        let device = try TestDevice(deviceID: "phone")
        let keyID = try await harness.register(device, try await harness.token())
        let thief = Self.bearer(try await Self.refreshed(harness))
        // A proof signed for another operation is refused, and spends its challenge.
        let wrong = try await Self.signedProof(
            harness, device, keyID: keyID, operation: "key_invalidated", auth: try await harness.token())
        let wrongOperation = await Self.delete(harness, keyID, body: ["device_proof": wrong], headers: thief)
        #expect(wrongOperation.status == 400)
        #expect(wrongOperation.errorCode == "invalid_challenge")
        #expect(try await harness.storedKey(keyID)?.status == .active)
        // An ordinary action's signature proves nothing either.
        let (actionID, actionChallenge) = try await harness.challenge(keyID, try await harness.token())
        let ordinary: JSONValue = [
            "challenge_id": .string(actionID), "signature": .string(try device.sign(challenge: actionChallenge)),
        ]
        let ordinaryRefused = await Self.delete(harness, keyID, body: ["device_proof": ordinary], headers: thief)
        #expect(ordinaryRefused.errorCode == "invalid_challenge")
        // Another key's signature over the right challenge is refused.
        let forged = try await Self.signedProof(
            harness, try TestDevice(deviceID: "phone"), keyID: keyID, operation: "revoke_key",
            auth: try await harness.token())
        let forgedRefused = await Self.delete(harness, keyID, body: ["device_proof": forged], headers: thief)
        #expect(forgedRefused.errorCode == "invalid_signature")
        #expect(try await harness.storedKey(keyID)?.status == .active)
        // The device's own signature for revoke_key: accepted with the thief's kind of token, since it proves the
        // device; replayed, refused.
        let proof = try await Self.signedProof(
            harness, device, keyID: keyID, operation: "revoke_key", auth: try await harness.token())
        let revoked = await Self.delete(harness, keyID, body: ["device_proof": proof], headers: thief)
        #expect(revoked.status == 204, "\(revoked.bodyText)")
        #expect(try await harness.storedKey(keyID)?.status == .revoked)
        let second = try await harness.register(device, try await harness.token())
        let replayed = await Self.delete(harness, second, body: ["device_proof": proof], headers: thief)
        #expect(replayed.errorCode == "invalid_challenge")
    }

    @Test("a device-proof challenge approves nothing; a malformed device-proof action is refused at the challenge")
    func proofIsNoApproval() async throws {
        let harness = try DeviceKeyHarness()
        let auth = try await harness.token()
        let device = try TestDevice(deviceID: "phone")
        let keyID = try await harness.register(device, auth)
        let (id, challenge) = try await harness.challenge(
            keyID, auth, action: ["type": "passkeyd:device_proof", "operation": "revoke_key"])
        let approval = await harness.approve(
            keyID, challengeID: id, signature: try device.sign(challenge: challenge), auth)
        #expect(approval.status == 400)
        #expect(approval.errorCode == "invalid_challenge")
        #expect(try approval.jsonValue()["action_token"] == nil)
        for action: JSONValue in [
            ["type": "passkeyd:device_proof"], ["type": "passkeyd:device_proof", "operation": "transfer"],
            ["type": "passkeyd:device_proof", "operation": "revoke_key", "amount": "1"],
        ] {
            let response = await harness.client.post(
                "/device-keys/\(keyID)/challenges", json: ["action": action], headers: auth)
            #expect(response.status == 400)
            #expect(response.errorCode == "invalid_authorization_details")
        }
    }

    @Test("a malformed device_proof is 400 invalid_request and changes nothing")
    func malformedProof() async throws {
        let harness = try DeviceKeyHarness()
        let keyID = try await harness.register(try TestDevice(deviceID: "phone"), try await harness.token())
        let thief = Self.bearer(try await Self.refreshed(harness))
        for proof: JSONValue in ["x", ["challenge_id": "c"], ["challenge_id": "c", "signature": "a+b/"]] {
            let response = await harness.client.post(
                "/device-events", json: Self.event("key_invalidated", proof: proof), headers: thief)
            #expect(response.status == 400)
            #expect(response.errorCode == "invalid_request")
        }
        #expect(try await harness.storedKey(keyID)?.status == .active)
    }
}
