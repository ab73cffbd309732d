import Crypto
import Foundation
import HTTP
import JSON
import Storage
import TestSupport
import Testing
import Tokens

@testable import Commands
@testable import Endpoints
@testable import Service
@testable import passkeyd

@Suite("Device keys: approvals, single use, lockout (router level)")
struct DeviceKeyEndpointsApprovalsTests {
    /// A registered device with one fresh challenge.
    struct Setup {
        let harness: DeviceKeyHarness
        let auth: HTTPHeaders
        let device: TestDevice
        let keyID: String
        let challenge: (id: String, challenge: String)
    }

    static func setup(_ overrides: [String: String] = [:], platform: String = "ios") async throws
        -> Setup
    {
        let harness = try DeviceKeyHarness(overrides)
        let auth = try await harness.token()
        let device = try TestDevice(platform: platform)
        let keyID = try await harness.register(device, auth)
        return Setup(
            harness: harness, auth: auth, device: device, keyID: keyID,
            challenge: try await harness.challenge(keyID, auth))
    }

    @Test(
        "a valid signature buys an action token: ES256, action+jwt, authorization_details, device_key_id, ≤ 5 min"
    )
    func approves() async throws {
        for platform in ["ios", "android"] {
            let setup = try await Self.setup(platform: platform)
            let harness = setup.harness
            let response = await harness.approve(
                setup.keyID, challengeID: setup.challenge.id,
                signature: try setup.device.sign(challenge: setup.challenge.challenge), setup.auth)
            #expect(response.status == 200)
            #expect(response.headers["Cache-Control"] == "no-store")
            let body = try response.jsonValue()
            #expect(body["token_type"]?.stringValue == "Bearer")
            #expect(body["expires_in"]?.intValue == 300)
            #expect(
                body["authorization_details"]?.serialized() == Array("[".utf8)
                    + (try JCS.canonicalBytes(DeviceKeyHarness.transfer)) + Array("]".utf8))
            let token = try #require(body["action_token"]?.stringValue)
            let verified = try await harness.context.tokens.currentRing().verifier.verify(
                token,
                expecting: JWTExpectations(
                    type: ActionTokenClaims.type, issuer: harness.context.configuration.issuer,
                    audience: harness.context.tokens.defaultAudience, now: harness.clock.now()))
            let claims = try JSONValue(parsing: verified.rawPayload)
            #expect(claims["sub"]?.stringValue == "user-a")
            #expect(claims["client_id"]?.stringValue == "app")
            #expect(claims["device_key_id"]?.stringValue == setup.keyID)
            #expect(claims["jti"]?.stringValue?.isEmpty == false)
            #expect(claims["authorization_details"] == body["authorization_details"])
            #expect((claims["exp"]?.intValue ?? 0) - (claims["iat"]?.intValue ?? 0) == 300)
            let stored = try #require(try await harness.storedKey(setup.keyID))
            #expect(stored.lastUsedAt == harness.clock.now())
            let approval = try #require(try await harness.events().last)
            #expect(approval.kind == "device_approval")
            #expect(approval.outcome == "success")
            #expect(approval.keyID == setup.keyID)
            #expect(approval.userID == "user-a")
            #expect(
                approval.actionHash == Digest.sha256(try JCS.canonicalBytes(DeviceKeyHarness.transfer)))
        }
    }

    @Test("the action token lives tokens.action_token_lifetime_seconds")
    func configuredLifetime() async throws {
        let setup = try await Self.setup(["PASSKEYD_TOKENS_ACTION_TOKEN_LIFETIME_SECONDS": "60"])
        let response = await setup.harness.approve(
            setup.keyID, challengeID: setup.challenge.id,
            signature: try setup.device.sign(challenge: setup.challenge.challenge), setup.auth)
        #expect(try response.jsonValue()["expires_in"]?.intValue == 60)
    }

    @Test("a replayed approval is 400 challenge_already_used and is recorded")
    func replay() async throws {
        let setup = try await Self.setup()
        let signature = try setup.device.sign(challenge: setup.challenge.challenge)
        #expect(
            await setup.harness.approve(
                setup.keyID, challengeID: setup.challenge.id, signature: signature, setup.auth
            ).status == 200)
        let replay = await setup.harness.approve(
            setup.keyID, challengeID: setup.challenge.id, signature: signature, setup.auth)
        #expect(replay.status == 400)
        #expect(replay.errorCode == "challenge_already_used")
        #expect(try await setup.harness.events().last?.reasonCode == "challenge_replayed")
    }

    @Test("another key's signature is 400 invalid_signature and burns the challenge")
    func otherKeysSignature() async throws {
        let setup = try await Self.setup()
        let stranger = try TestDevice()
        let response = await setup.harness.approve(
            setup.keyID, challengeID: setup.challenge.id,
            signature: try stranger.sign(challenge: setup.challenge.challenge),
            setup.auth)
        #expect(response.status == 400)
        #expect(response.errorCode == "invalid_signature")
        // Consumed on first presentation: the right signature now comes too late.
        let late = await setup.harness.approve(
            setup.keyID, challengeID: setup.challenge.id,
            signature: try setup.device.sign(challenge: setup.challenge.challenge), setup.auth)
        #expect(late.errorCode == "challenge_already_used")
        #expect(try await setup.harness.storedKey(setup.keyID)?.failedAttempts == 1)
    }

    @Test(
        "a challenge of key A presented through key B is 400 invalid_challenge, and A's challenge survives"
    )
    func crossKey() async throws {
        let setup = try await Self.setup()
        let second = try TestDevice(deviceID: "phone-2")
        let secondKeyID = try await setup.harness.register(second, setup.auth)
        // Signed by B over A's bytes, presented through B.
        let response = await setup.harness.approve(
            secondKeyID, challengeID: setup.challenge.id,
            signature: try second.sign(challenge: setup.challenge.challenge),
            setup.auth)
        #expect(response.status == 400)
        #expect(response.errorCode == "invalid_challenge")
        let ok = await setup.harness.approve(
            setup.keyID, challengeID: setup.challenge.id,
            signature: try setup.device.sign(challenge: setup.challenge.challenge), setup.auth)
        #expect(ok.status == 200)
    }

    @Test(
        "another user's key is 404 even with a valid signature; an unknown challenge is invalid_challenge"
    )
    func foreign() async throws {
        let setup = try await Self.setup()
        let signature = try setup.device.sign(challenge: setup.challenge.challenge)
        let byBob = await setup.harness.approve(
            setup.keyID, challengeID: setup.challenge.id, signature: signature,
            try await setup.harness.token("user-b"))
        #expect(byBob.status == 404)
        #expect(byBob.errorCode == "not_found")
        let unknown = await setup.harness.approve(
            setup.keyID, challengeID: "nope", signature: signature, setup.auth)
        #expect(unknown.errorCode == "invalid_challenge")
        #expect(
            await setup.harness.approve(
                setup.keyID, challengeID: setup.challenge.id, signature: signature, setup.auth
            ).status == 200)
    }

    @Test("a challenge is valid until exp, refused as expired_challenge from exp on")
    func expiry() async throws {
        let setup = try await Self.setup()
        let harness = setup.harness
        let late = try await harness.challenge(setup.keyID, setup.auth)
        harness.clock.advance(119)
        #expect(
            await harness.approve(
                setup.keyID, challengeID: setup.challenge.id,
                signature: try setup.device.sign(challenge: setup.challenge.challenge), setup.auth
            ).status == 200)
        harness.clock.advance(1)
        let expired = await harness.approve(
            setup.keyID, challengeID: late.id,
            signature: try setup.device.sign(challenge: late.challenge), setup.auth)
        #expect(expired.status == 400)
        #expect(expired.errorCode == "expired_challenge")
    }

    @Test("three consecutive bad signatures lock the key; then even a good one is 403 key_locked")
    func lockout() async throws {
        let setup = try await Self.setup()
        let harness = setup.harness
        let stranger = try TestDevice()
        for attempt in 1...3 {
            let challenge = try await harness.challenge(setup.keyID, setup.auth)
            let response = await harness.approve(
                setup.keyID, challengeID: challenge.id,
                signature: try stranger.sign(challenge: challenge.challenge),
                setup.auth)
            #expect(response.errorCode == "invalid_signature", "attempt \(attempt)")
        }
        let key = try #require(try await harness.storedKey(setup.keyID))
        #expect(key.status == .locked)
        #expect(key.failedAttempts == 3)
        #expect(key.lockedAt == harness.clock.now())
        let good = await harness.approve(
            setup.keyID, challengeID: setup.challenge.id,
            signature: try setup.device.sign(challenge: setup.challenge.challenge), setup.auth)
        #expect(good.status == 403)
        #expect(good.errorCode == "key_locked")
        let events = try await harness.events()
        #expect(
            events.filter { $0.kind == "device_approval" && $0.reasonCode == "invalid_signature" }.map(
                \.attempts) == [1, 2, 3])
        #expect(
            events.filter { $0.kind == "device_key_locked" }.map(\.reasonCode) == ["failed_signatures"])
        #expect(events.last?.reasonCode == "device_key_locked")
    }

    @Test("a verified approval resets the failure count: failures must be consecutive")
    func resetOnSuccess() async throws {
        let setup = try await Self.setup()
        let harness = setup.harness
        let stranger = try TestDevice()
        for _ in 1...2 {
            let challenge = try await harness.challenge(setup.keyID, setup.auth)
            _ = await harness.approve(
                setup.keyID, challengeID: challenge.id,
                signature: try stranger.sign(challenge: challenge.challenge), setup.auth)
        }
        #expect(
            await harness.approve(
                setup.keyID, challengeID: setup.challenge.id,
                signature: try setup.device.sign(challenge: setup.challenge.challenge), setup.auth
            ).status == 200)
        #expect(try await harness.storedKey(setup.keyID)?.failedAttempts == 0)
    }

    @Test("a revoked key is 403 key_revoked")
    func revoked() async throws {
        let setup = try await Self.setup()
        #expect(
            await setup.harness.client.delete("/device-keys/\(setup.keyID)", headers: setup.auth).status
                == 204)
        let response = await setup.harness.approve(
            setup.keyID, challengeID: setup.challenge.id,
            signature: try setup.device.sign(challenge: setup.challenge.challenge), setup.auth)
        #expect(response.status == 403)
        #expect(response.errorCode == "key_revoked")
    }

    @Test(
        "a malformed approval body is 400 invalid_request and consumes nothing",
        arguments: [
            #"{"signature":"AAAA"}"#, #"{"challenge_id":"c"}"#,
            #"{"challenge_id":"c","signature":"a+b/"}"#,
            #"{"challenge_id":"c","signature":1}"#, "[]",
        ])
    func malformed(body: String) async throws {
        let setup = try await Self.setup()
        let response = await setup.harness.client.post(
            "/device-keys/\(setup.keyID)/approvals", body: Array(body.utf8),
            contentType: "application/json",
            headers: setup.auth)
        #expect(response.status == 400)
        #expect(response.errorCode == "invalid_request")
    }

    @Test(
        "16 concurrent approvals of one challenge: exactly one 200, the rest challenge_already_used")
    func concurrent() async throws {
        let setup = try await Self.setup()
        let signature = try setup.device.sign(challenge: setup.challenge.challenge)
        let statuses = await withTaskGroup(of: (Int, String?).self) { group in
            for _ in 0..<16 {
                group.addTask {
                    let response = await setup.harness.approve(
                        setup.keyID, challengeID: setup.challenge.id, signature: signature, setup.auth)
                    return (response.status, response.errorCode)
                }
            }
            var all: [(Int, String?)] = []
            for await result in group { all.append(result) }
            return all
        }
        #expect(statuses.filter { $0.0 == 200 }.count == 1)
        #expect(statuses.filter { $0.1 == "challenge_already_used" }.count == 15)
    }
}
