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

/// The endpoints parse a request before they call its flow, and the flow reads what they parsed (`RequestFields`) at
/// the step of its rule where the fields are needed: a refusal that comes first — the key is not the caller's or not
/// active, the step-up is missing, the client takes no attestation, a DPoP proof by the bound key — is answered, and
/// recorded, whatever the rest of the body holds.
@Suite("Device-key refusals come in the flow's order, whatever the body holds (router level)")
struct DeviceKeyRefusalOrderTests {
    /// A JSON body that is not an object.
    static let notAnObject: JSONValue = [1]

    /// `method` `path` with `body` as its JSON body.
    static func send(
        _ harness: DeviceKeyHarness, _ method: HTTPMethod, _ path: String, body: JSONValue, headers: HTTPHeaders
    ) async -> Response {
        var all = headers
        all.add(name: "Content-Type", value: "application/json")
        return await harness.client.execute(method, path, headers: all, body: body.serialized())
    }

    @Test("another user's key is 404 not_found, recorded, before the body of an approval or a challenge is read")
    func ownershipBeforeBody() async throws {
        let harness = try DeviceKeyHarness()
        let keyID = try await harness.register(try TestDevice(), try await harness.token("user-a"))
        let bob = try await harness.token("user-b")
        for path in ["/device-keys/\(keyID)/approvals", "/device-keys/\(keyID)/challenges"] {
            let response = await Self.send(harness, .post, path, body: Self.notAnObject, headers: bob)
            #expect(response.status == 404, "\(path)")
            #expect(response.errorCode == "not_found", "\(path)")
            let refusal = try #require(try await harness.events().last)
            #expect(refusal.userID == "user-b")
            #expect(refusal.outcome == "failure")
            #expect(refusal.reasonCode == "device_key_not_found")
        }
    }

    @Test("a challenge for a revoked key is 403 key_revoked before its missing action is noticed")
    func activeBeforeAction() async throws {
        let harness = try DeviceKeyHarness()
        let auth = try await harness.token()
        let keyID = try await harness.register(try TestDevice(), auth)
        #expect(await harness.client.delete("/device-keys/\(keyID)", headers: auth).status == 204)
        let response = await harness.client.post(
            "/device-keys/\(keyID)/challenges", json: ["other": "member"], headers: auth)
        #expect(response.status == 403)
        #expect(response.errorCode == "key_revoked")
    }

    @Test("an enrolment without the step-up is refused for it, recorded, before its platform is read")
    func stepUpBeforeFields() async throws {
        let harness = try DeviceKeyHarness()
        let stale = try await harness.token(authTime: harness.clock.now().addingTimeInterval(-3600))
        let response = await harness.client.post(
            "/device-keys", json: ["device_id": "phone-1", "platform": "windows", "public_key": "%%"], headers: stale)
        #expect(response.status == 401)
        #expect(response.errorCode == "insufficient_user_authentication")
        let refusal = try #require(try await harness.events().last)
        #expect(refusal.kind == "device_key_registered")
        #expect(refusal.outcome == "failure")
        #expect(refusal.deviceID == "phone-1")
    }

    @Test("a client that takes no attestation never reads attestation or enrolment_nonce")
    func attestationPolicyBeforeNonce() async throws {
        let harness = try DeviceKeyHarness()
        var body = try TestDevice().registration.objectMembers ?? []
        body.append(JSONMember(key: "attestation", value: "not a chain"))
        body.append(JSONMember(key: "enrolment_nonce", value: 5))
        let response = await harness.client.post(
            "/device-keys", json: .object(body), headers: try await harness.token())
        #expect(response.status == 201, "\(response.bodyText)")
        #expect(try response.jsonValue()["attestation"] == .null)
    }

    @Test("revoking a revoked key is 204 whatever its body holds")
    func revokedBeforeBody() async throws {
        let harness = try DeviceKeyHarness()
        let auth = try await harness.token()
        let keyID = try await harness.register(try TestDevice(), auth)
        #expect(await harness.client.delete("/device-keys/\(keyID)", headers: auth).status == 204)
        let again = await Self.send(harness, .delete, "/device-keys/\(keyID)", body: Self.notAnObject, headers: auth)
        #expect(again.status == 204, "\(again.bodyText)")
    }

    @Test("a DPoP proof by the key bound at enrolment comes first: a malformed device_proof beside it is not read")
    func boundDPoPKeyBeforeDeviceProof() async throws {
        let harness = try DeviceKeyHarness()
        let appKey = try DPoPProver()
        let enrolment = try await harness.accessToken(boundTo: appKey)
        let keyID = try await harness.register(
            try TestDevice(), try harness.dpopHeaders("POST", "/device-keys", token: enrolment, prover: appKey))
        // A refreshed token of the app's DPoP key: the bound key is the only proof it brings.
        let now = harness.clock.now()
        let refreshed = try await harness.accessToken(
            authTime: now.addingTimeInterval(-60), issuedAt: now, boundTo: appKey)
        let path = "/device-keys/\(keyID)"
        let response = await Self.send(
            harness, .delete, path, body: ["device_proof": "not an object"],
            headers: try harness.dpopHeaders("DELETE", path, token: refreshed, prover: appKey))
        #expect(response.status == 204, "\(response.bodyText)")
        #expect(try await harness.storedKey(keyID)?.status == .revoked)
    }
}
