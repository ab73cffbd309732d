import Foundation
import HTTP
import JSON
import Storage
import StorageSQLite
import TestSupport
import Testing

@testable import Commands
@testable import Endpoints
@testable import Service
@testable import passkeyd

/// Without limits, one user could add 1,000 keys in 3 s and 2,000 never-purged event rows in 4 s. The authenticated
/// API is limited per address and per user, keys per user are capped, and device events per user per minute.
@Suite("Device keys and device events: per-user and per-address limits (router level)")
struct DeviceKeyEndpointsLimitsTests {
    static let event: JSONValue = ["device_id": "phone-1", "type": "biometric_success"]

    // MARK: keys per user

    @Test("by default a user may have 10 usable keys; the 11th device is refused with 409 and nothing is written")
    func defaultKeyLimit() async throws {
        let harness = try DeviceKeyHarness()
        let auth = try await harness.token()
        for index in 0..<10 {
            _ = try await harness.register(try TestDevice(deviceID: "device-\(index)"), auth)
        }
        let eventsBefore = try await harness.events().count
        let refused = await harness.client.post(
            "/device-keys", json: try TestDevice(deviceID: "device-10").registration, headers: auth)
        #expect(refused.status == 409)
        #expect(refused.errorCode == "device_key_limit_reached")
        #expect(
            try refused.jsonValue()["error_description"]?.stringValue
                == "This user has the maximum number of device keys (10). Revoke one first.")
        let keys = try await harness.store.read { try $0.deviceKeys(userID: "user-a") }
        #expect(keys.count == 10)
        #expect(try await harness.events().count == eventsBefore)
    }

    @Test("re-enrolling a device replaces its key and does not count twice; locked keys count, revoked do not")
    func replacementAndStatuses() async throws {
        let harness = try DeviceKeyHarness(["PASSKEYD_DEVICE_KEYS_MAX_KEYS_PER_USER": "2"])
        let auth = try await harness.token()
        let first = try await harness.register(try TestDevice(deviceID: "phone"), auth)
        _ = try await harness.register(try TestDevice(deviceID: "tablet"), auth)
        // Full: a third device is refused, a new key for an enrolled device replaces the old one.
        #expect(
            await harness.client.post(
                "/device-keys", json: try TestDevice(deviceID: "watch").registration, headers: auth
            )
            .status == 409)
        let replacement = try await harness.register(try TestDevice(deviceID: "phone"), auth)
        #expect(try await harness.storedKey(first)?.status == .revoked)
        // A locked key still counts.
        let locked = DeviceKeyState(status: .locked, failedAttempts: 3, lockedAt: harness.clock.now())
        #expect(
            try await harness.store.write {
                try $0.updateDeviceKeyState(keyID: replacement, userID: "user-a", state: locked)
            })
        #expect(
            await harness.client.post(
                "/device-keys", json: try TestDevice(deviceID: "watch").registration, headers: auth
            )
            .status == 409)
        // A revoked key frees its place.
        #expect(await harness.client.delete("/device-keys/\(replacement)", headers: auth).status == 204)
        _ = try await harness.register(try TestDevice(deviceID: "watch"), auth)
        // Another user has a limit of their own.
        _ = try await harness.register(try TestDevice(deviceID: "phone"), try await harness.token("user-b"))
    }

    @Test("concurrent enrolments cannot pass the limit together", arguments: ["memory", "sqlite"])
    func concurrentEnrolments(driver: String) async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("passkeyd-limits-\(UUID())").path
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let store: any Store =
            driver == "sqlite"
            ? try await SQLiteStore.open(SQLiteConfiguration(directory: directory, readerCount: 2)) : MemoryStore()
        let harness = try DeviceKeyHarness(["PASSKEYD_DEVICE_KEYS_MAX_KEYS_PER_USER": "3"], store: store)
        let auth = try await harness.token()
        let devices = try (0..<12).map { try TestDevice(deviceID: "device-\($0)") }
        let statuses = await withTaskGroup(of: Int.self) { group in
            for device in devices {
                group.addTask {
                    await harness.client.post("/device-keys", json: device.registration, headers: auth).status
                }
            }
            return await group.reduce(into: [Int]()) { $0.append($1) }
        }
        #expect(statuses.filter { $0 == 201 }.count == 3)
        #expect(statuses.filter { $0 == 409 }.count == 9)
        let usable = try await harness.store.read { try $0.deviceKeys(userID: "user-a") }.filter {
            $0.status != .revoked
        }
        #expect(usable.count == 3)
        await store.close()
    }

    // MARK: requests per user and per address

    @Test("requests of one user are limited per minute (429 with Retry-After) from any address; others are not")
    func perUserLimit() async throws {
        let harness = try DeviceKeyHarness(["PASSKEYD_RATE_LIMIT_REQUESTS_PER_USER_PER_MINUTE": "4"])
        let auth = try await harness.token()
        let elsewhere = TestClient(responder: Application(context: harness.context), remoteAddress: "192.0.2.7")
        for client in [harness.client, elsewhere, harness.client, elsewhere] {
            #expect(await client.get("/device-keys", headers: auth).status == 200)
        }
        let refused = [
            await elsewhere.get("/device-keys", headers: auth),
            await harness.client.post("/device-keys", json: try TestDevice().registration, headers: auth),
            await harness.client.post("/device-events", json: Self.event, headers: auth),
            await harness.client.delete("/device-keys/unknown", headers: auth),
            await harness.client.post(
                "/device-keys/unknown/challenges", json: ["action": DeviceKeyHarness.transfer], headers: auth),
            await harness.client.post(
                "/device-keys/unknown/approvals", json: ["challenge_id": "x", "signature": "x"], headers: auth),
            await harness.client.post("/device-keys/unknown/unlock", json: ["x": 1], headers: auth),
        ]
        for limited in refused {
            #expect(limited.status == 429)
            #expect(limited.errorCode == "too_many_requests")
            #expect(limited.headers["Retry-After"] == "60")
        }
        #expect(try await harness.store.read { try $0.deviceKeys(userID: "user-a") }.isEmpty)
        #expect(try await harness.events().isEmpty)
        #expect(await harness.client.get("/device-keys", headers: try await harness.token("user-b")).status == 200)
        harness.clock.advance(60)
        #expect(await harness.client.get("/device-keys", headers: auth).status == 200)
    }

    @Test("requests from one address are limited per minute whoever's token they carry")
    func perAddressLimit() async throws {
        let harness = try DeviceKeyHarness(["PASSKEYD_RATE_LIMIT_REQUESTS_PER_MINUTE": "3"])
        let users = [try await harness.token("user-a"), try await harness.token("user-b")]
        for index in 0..<3 {
            #expect(await harness.client.get("/device-keys", headers: users[index % 2]).status == 200)
        }
        let limited = await harness.client.post("/device-events", json: Self.event, headers: users[1])
        #expect(limited.status == 429)
        #expect(limited.headers["Retry-After"] != nil)
        let elsewhere = TestClient(responder: Application(context: harness.context), remoteAddress: "192.0.2.7")
        #expect(await elsewhere.get("/device-keys", headers: users[0]).status == 200)
    }

    // MARK: device events per user

    @Test("device events of one user are bounded per minute (default 30): beyond it 429 and nothing is written")
    func eventBound() async throws {
        let harness = try DeviceKeyHarness()
        let auth = try await harness.token()
        _ = try await harness.register(try TestDevice(), auth)
        for _ in 0..<30 {
            #expect(await harness.client.post("/device-events", json: Self.event, headers: auth).status == 200)
        }
        let before = try await harness.events().count
        let limited = await harness.client.post("/device-events", json: Self.event, headers: auth)
        #expect(limited.status == 429)
        #expect(limited.errorCode == "too_many_requests")
        #expect(try limited.jsonValue()["error_description"]?.stringValue == "Too many device events. Try again later.")
        #expect(limited.headers["Retry-After"] == "60")
        #expect(try await harness.events().count == before)
        // Reading keys is not an event, another user has a bound of their own, and the next minute opens again.
        #expect(await harness.client.get("/device-keys", headers: auth).status == 200)
        #expect(
            await harness.client.post("/device-events", json: Self.event, headers: try await harness.token("user-b"))
                .status == 200)
        harness.clock.advance(60)
        #expect(await harness.client.post("/device-events", json: Self.event, headers: auth).status == 200)
    }

    @Test("the event bound is configurable")
    func eventBoundConfigured() async throws {
        let harness = try DeviceKeyHarness(["PASSKEYD_DEVICE_KEYS_EVENTS_PER_USER_PER_MINUTE": "2"])
        let auth = try await harness.token()
        var statuses: [Int] = []
        for _ in 0..<3 {
            statuses.append(await harness.client.post("/device-events", json: Self.event, headers: auth).status)
        }
        #expect(statuses == [200, 200, 429])
        #expect(try await harness.events().count == 2)
    }
}
