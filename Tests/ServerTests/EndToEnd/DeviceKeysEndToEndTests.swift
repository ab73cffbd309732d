import Crypto
import Foundation
import HTTP
import JSON
import Storage
import Testing
import Tokens

@testable import Commands
@testable import Endpoints
@testable import Service
@testable import passkeyd

@Suite("Device keys through the daemon on SQLite: passkey login, then device keys", .serialized)
struct DeviceKeysEndToEndTests {
    static let transfer: JSONValue = [
        "type": "transfer", "amount": "200.00", "currency": "EUR",
        "creditor_account": "FR7630006000011234567890189",
    ]

    /// The start of every test: a daemon on its own clock, `alice` signed up and logged in by passkey; returns the
    /// clock, the daemon and her access token.
    static func start(signingIn alice: inout Passkey) async throws
        -> (clock: TestClock, server: LiveServer, token: String)
    {
        let clock = TestClock(Date())
        let server = try await LiveServer.startForDeviceKeys(clock: clock)
        let token = try await server.passkeyUser(&alice, email: "alice@example.com")
        return (clock, server, token)
    }

    /// Registers a fresh default `TestDevice` for the holder of `token`; returns it with its key id.
    static func registerPhone(_ server: LiveServer, _ token: String) async throws
        -> (phone: TestDevice, keyID: String)
    {
        let phone = try TestDevice()
        return (phone, try await register(server, phone, token))
    }

    /// Registers `device`; returns the key id.
    static func register(_ server: LiveServer, _ device: TestDevice, _ token: String) async throws
        -> String
    {
        let answer = try await server.call("POST", "/device-keys", token, device.registration)
        guard answer.status == 201, let keyID = answer.body["key_id"]?.stringValue else {
            throw HarnessFailure("register: \(answer.status) \(answer.body)")
        }
        return keyID
    }

    /// Asks for a challenge; returns `(challenge_id, challenge)`.
    static func challenge(_ server: LiveServer, _ keyID: String, _ token: String) async throws
        -> (id: String, challenge: String)
    {
        let answer = try await server.call(
            "POST", "/device-keys/\(keyID)/challenges", token, ["action": transfer])
        guard answer.status == 201, let id = answer.body["challenge_id"]?.stringValue,
            let challenge = answer.body["challenge"]?.stringValue
        else { throw HarnessFailure("challenge: \(answer.status) \(answer.body)") }
        return (id, challenge)
    }

    static func approve(
        _ server: LiveServer, _ keyID: String, _ challengeID: String, _ signature: String,
        _ token: String
    )
        async throws -> (status: Int, headers: [String: String], body: JSONValue)
    {
        try await server.call(
            "POST", "/device-keys/\(keyID)/approvals", token,
            ["challenge_id": .string(challengeID), "signature": .string(signature)])
    }

    @Test(
        "iOS (X9.62) and Android (SPKI) keys approve an action; the action token verifies against the JWKS"
    )
    func approvals() async throws {
        var alice = Passkey()
        let (clock, server, token) = try await Self.start(signingIn: &alice)
        let verifier = try await server.verifierFromJWKS()
        for device in [
            try TestDevice(deviceID: "iphone", platform: "ios"),
            try TestDevice(deviceID: "pixel", platform: "android"),
        ] {
            clock.advance(1)
            let keyID = try await Self.register(server, device, token)
            let challenge = try await Self.challenge(server, keyID, token)
            let signature = try device.sign(challenge: challenge.challenge)
            let answer = try await Self.approve(server, keyID, challenge.id, signature, token)
            #expect(answer.status == 200, "\(device.platform): \(answer.body)")
            #expect(answer.body["token_type"]?.stringValue == "Bearer")
            let actionToken = try #require(answer.body["action_token"]?.stringValue)
            let verified = try verifier.verify(
                actionToken,
                expecting: JWTExpectations(
                    type: ActionTokenClaims.type, issuer: server.running.context.configuration.issuer,
                    audience: server.running.context.configuration.issuer, now: clock.now()))
            let claims = try JSONValue(parsing: verified.rawPayload)
            #expect(claims["device_key_id"]?.stringValue == keyID)
            #expect(claims["client_id"]?.stringValue == "app")
            #expect(
                claims["authorization_details"] == [
                    .object(try JSONValue(parsing: JCS.canonicalBytes(Self.transfer)).objectMembers ?? [])
                ])
            #expect((claims["exp"]?.intValue ?? 0) - (claims["iat"]?.intValue ?? 0) <= 300)
            // Replay of the same approval.
            let replay = try await Self.approve(server, keyID, challenge.id, signature, token)
            #expect(replay.status == 400)
            #expect(replay.body["error"]?.stringValue == "challenge_already_used")
        }
        let listed = try await server.call("GET", "/device-keys", token)
        let keys = try #require(listed.body["keys"]?.arrayValue)
        #expect(keys.map { $0["platform"]?.stringValue } == ["ios", "android"])
        #expect(keys.allSatisfy { $0["last_used_at"]?.stringValue != nil })
        let events = try await server.securityEvents()
        #expect(events.filter { $0.kind == "device_approval" && $0.outcome == "success" }.count == 2)
        #expect(
            events.filter { $0.kind == "device_approval" && $0.reasonCode == "challenge_replayed" }.count
                == 2)
        await server.stop()
    }

    @Test(
        "refused: another key's signature, key A's challenge through key B, another user's key (404), expiry"
    )
    func refusals() async throws {
        var alice = Passkey()
        var bob = Passkey()
        let (clock, server, aliceToken) = try await Self.start(signingIn: &alice)
        let bobToken = try await server.passkeyUser(&bob, email: "bob@example.com")
        let phoneA = try TestDevice(deviceID: "a", platform: "ios")
        let phoneB = try TestDevice(deviceID: "b", platform: "android")
        let keyA = try await Self.register(server, phoneA, aliceToken)
        let keyB = try await Self.register(server, phoneB, aliceToken)

        // Another key's signature: refused, and the challenge is burnt.
        let first = try await Self.challenge(server, keyA, aliceToken)
        let foreign = try await Self.approve(
            server, keyA, first.id, try phoneB.sign(challenge: first.challenge), aliceToken)
        #expect(foreign.status == 400)
        #expect(foreign.body["error"]?.stringValue == "invalid_signature")

        // Key A's challenge presented through key B (signed by B): refused, A's challenge untouched.
        let second = try await Self.challenge(server, keyA, aliceToken)
        let crossed = try await Self.approve(
            server, keyB, second.id, try phoneB.sign(challenge: second.challenge), aliceToken)
        #expect(crossed.status == 400)
        #expect(crossed.body["error"]?.stringValue == "invalid_challenge")

        // Bob cannot see, challenge, approve or delete Alice's key: 404 every time, never 403.
        let signature = try phoneA.sign(challenge: second.challenge)
        #expect(
            try await server.call(
                "POST", "/device-keys/\(keyA)/challenges", bobToken, ["action": Self.transfer]
            ).status == 404)
        #expect(try await Self.approve(server, keyA, second.id, signature, bobToken).status == 404)
        #expect(try await server.call("DELETE", "/device-keys/\(keyA)", bobToken).status == 404)
        #expect(try await server.call("GET", "/device-keys", bobToken).body["keys"] == [])
        #expect(try await Self.approve(server, keyA, second.id, signature, aliceToken).status == 200)

        // Expiry, with the daemon's clock moved past the default 120 s.
        let third = try await Self.challenge(server, keyA, aliceToken)
        clock.advance(121)
        let refreshedToken = try await server.freshAccessToken(&alice)
        let late = try await Self.approve(
            server, keyA, third.id, try phoneA.sign(challenge: third.challenge), refreshedToken)
        #expect(late.status == 400)
        #expect(late.body["error"]?.stringValue == "expired_challenge")
        await server.stop()
    }

    @Test("three bad signatures lock the key; it unlocks only after a new passkey login")
    func lockoutAndUnlock() async throws {
        var alice = Passkey()
        let (clock, server, token) = try await Self.start(signingIn: &alice)
        let (phone, keyID) = try await Self.registerPhone(server, token)
        let thief = try TestDevice()
        for _ in 1...3 {
            let challenge = try await Self.challenge(server, keyID, token)
            _ = try await Self.approve(
                server, keyID, challenge.id, try thief.sign(challenge: challenge.challenge), token)
        }
        let locked = try await server.call(
            "POST", "/device-keys/\(keyID)/challenges", token, ["action": Self.transfer])
        #expect(locked.status == 403)
        #expect(locked.body["error"]?.stringValue == "key_locked")
        // The token from before the lock does not unlock.
        let stale = try await server.call("POST", "/device-keys/\(keyID)/unlock", token, [:])
        #expect(stale.status == 403)
        #expect(stale.body["error"]?.stringValue == "login_required")
        // A passkey login after the lock does.
        clock.advance(5)
        let fresh = try await server.freshAccessToken(&alice)
        let unlocked = try await server.call("POST", "/device-keys/\(keyID)/unlock", fresh, [:])
        #expect(unlocked.status == 200)
        #expect(unlocked.body["status"]?.stringValue == "active")
        let challenge = try await Self.challenge(server, keyID, fresh)
        #expect(
            try await Self.approve(
                server, keyID, challenge.id, try phone.sign(challenge: challenge.challenge), fresh
            ).status == 200)
        let kinds = try await server.securityEvents().map(\.kind)
        #expect(kinds.contains("device_key_locked"))
        #expect(kinds.contains("device_key_unlocked"))
        await server.stop()
    }

    @Test("revocation, re-enrolment after a biometry change, and key_invalidated device events")
    func revocationAndReEnrolment() async throws {
        var alice = Passkey()
        let (clock, server, token) = try await Self.start(signingIn: &alice)
        let old = try TestDevice(deviceID: "phone")
        let oldKey = try await Self.register(server, old, token)
        let pending = try await Self.challenge(server, oldKey, token)
        // Biometry changed: the app enrols a new key for the same device; the old one is revoked.
        clock.advance(1)
        let new = try TestDevice(deviceID: "phone")
        let newKey = try await Self.register(server, new, token)
        let refused = try await Self.approve(
            server, oldKey, pending.id, try old.sign(challenge: pending.challenge), token)
        #expect(refused.status == 403)
        #expect(refused.body["error"]?.stringValue == "key_revoked")
        let statuses = try await server.call("GET", "/device-keys", token).body["keys"]?.arrayValue?
            .map { $0["status"]?.stringValue }
        #expect(statuses == ["revoked", "active"])
        // The device reports the next biometry change: the new key is revoked too.
        let event = try await server.call(
            "POST", "/device-events", token, ["device_id": "phone", "type": "key_invalidated"])
        #expect(event.status == 200)
        #expect(
            event.body["keys"]?.arrayValue?.compactMap { $0["status"]?.stringValue } == [
                "revoked", "revoked",
            ])
        // DELETE of a third key.
        let third = try await Self.register(server, try TestDevice(deviceID: "tablet"), token)
        #expect(try await server.call("DELETE", "/device-keys/\(third)", token).status == 204)
        let challenge = try await server.call(
            "POST", "/device-keys/\(newKey)/challenges", token, ["action": Self.transfer])
        #expect(challenge.body["error"]?.stringValue == "key_revoked")
        let revocations = try await server.securityEvents().filter { $0.kind == "device_key_revoked" }
        #expect(revocations.compactMap(\.reasonCode) == ["replaced", "key_invalidated", "deleted"])
        await server.stop()
    }

    @Test("16 concurrent approvals of one challenge over HTTP: exactly one 200")
    func concurrentApprovals() async throws {
        var alice = Passkey()
        let (_, server, token) = try await Self.start(signingIn: &alice)
        let (phone, keyID) = try await Self.registerPhone(server, token)
        let challenge = try await Self.challenge(server, keyID, token)
        let signature = try phone.sign(challenge: challenge.challenge)
        let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
            for _ in 0..<16 {
                group.addTask {
                    try await Self.approve(server, keyID, challenge.id, signature, token).status
                }
            }
            var all: [Int] = []
            for try await status in group { all.append(status) }
            return all
        }
        #expect(statuses.filter { $0 == 200 }.count == 1)
        #expect(statuses.filter { $0 == 400 }.count == 15)
        await server.stop()
    }
}
