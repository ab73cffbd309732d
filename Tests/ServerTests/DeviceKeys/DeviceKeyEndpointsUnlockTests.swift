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

@Suite("Device keys: unlock after a fresh passkey login (router level)")
struct DeviceKeyEndpointsUnlockTests {
    /// A key locked by three bad signatures at the harness clock's current time.
    static func lockedKey() async throws -> (DeviceKeyHarness, TestDevice, String) {
        let harness = try DeviceKeyHarness()
        let auth = try await harness.token()
        let device = try TestDevice()
        let keyID = try await harness.register(device, auth)
        let stranger = try TestDevice()
        for _ in 1...3 {
            let challenge = try await harness.challenge(keyID, auth)
            _ = await harness.approve(
                keyID, challengeID: challenge.id,
                signature: try stranger.sign(challenge: challenge.challenge), auth)
        }
        return (harness, device, keyID)
    }

    @Test("a token from a login before (or at) the lock is refused: 403 login_required")
    func staleLogin() async throws {
        let (harness, _, keyID) = try await Self.lockedKey()
        let lockedAt = try #require(try await harness.storedKey(keyID)?.lockedAt)
        for authTime in [lockedAt.addingTimeInterval(-60), lockedAt] {
            harness.clock.advance(10)
            let response = await harness.client.post(
                "/device-keys/\(keyID)/unlock", json: JSONValue.object([]),
                headers: try await harness.token(authTime: authTime))
            #expect(response.status == 403)
            #expect(response.errorCode == "login_required")
        }
        #expect(try await harness.storedKey(keyID)?.status == .locked)
        #expect(try await harness.events().last?.reasonCode == "unlock_needs_fresh_login")
    }

    @Test("a password-only login after the lock does not unlock: 401 insufficient_user_authentication")
    func passwordLogin() async throws {
        let (harness, _, keyID) = try await Self.lockedKey()
        harness.clock.advance(30)
        let response = await harness.client.post(
            "/device-keys/\(keyID)/unlock", json: JSONValue.object([]),
            headers: try await harness.token(methods: ["pwd"]))
        // A password login is refused by every device-key endpoint (`PasswordLogin`), this one included.
        #expect(response.status == 401)
        #expect(response.errorCode == "insufficient_user_authentication")
        #expect(try await harness.storedKey(keyID)?.status == .locked)
    }

    @Test(
        "a token from a passkey login after the lock unlocks: active, zero failures, approvals work again"
    )
    func freshLogin() async throws {
        let (harness, device, keyID) = try await Self.lockedKey()
        harness.clock.advance(30)
        let fresh = try await harness.token()
        let response = await harness.client.post(
            "/device-keys/\(keyID)/unlock", json: JSONValue.object([]), headers: fresh)
        #expect(response.status == 200)
        #expect(try response.jsonValue()["status"]?.stringValue == "active")
        let key = try #require(try await harness.storedKey(keyID))
        #expect(key.status == .active)
        #expect(key.failedAttempts == 0)
        #expect(key.lockedAt == nil)
        #expect(try await harness.events().last?.kind == "device_key_unlocked")
        let challenge = try await harness.challenge(keyID, fresh)
        let approval = await harness.approve(
            keyID, challengeID: challenge.id, signature: try device.sign(challenge: challenge.challenge),
            fresh)
        #expect(approval.status == 200)
    }

    @Test(
        "unlocking an active key answers it as is; a revoked key stays revoked; another user's key is 404"
    )
    func otherStates() async throws {
        let harness = try DeviceKeyHarness()
        let auth = try await harness.token()
        let keyID = try await harness.register(try TestDevice(), auth)
        let active = await harness.client.post(
            "/device-keys/\(keyID)/unlock", json: JSONValue.object([]), headers: auth)
        #expect(active.status == 200)
        let byBob = await harness.client.post(
            "/device-keys/\(keyID)/unlock", json: JSONValue.object([]),
            headers: try await harness.token("user-b"))
        #expect(byBob.status == 404)
        #expect(await harness.client.delete("/device-keys/\(keyID)", headers: auth).status == 204)
        let revoked = await harness.client.post(
            "/device-keys/\(keyID)/unlock", json: JSONValue.object([]), headers: auth)
        #expect(revoked.status == 403)
        #expect(revoked.errorCode == "key_revoked")
    }
}
