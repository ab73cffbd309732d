import Foundation
import Storage

extension StoreConformance {
    static let deviceKeyChecks: [Check] = [
        Check("a new key for the same user and device revokes the old one atomically; others are untouched") {
            store in
            try await store.write { writer in
                _ = try writer.insertDeviceKey(S.deviceKey("key-1"))
                _ = try writer.insertDeviceKey(S.deviceKey("key-2", deviceID: "device-2"))
                _ = try writer.insertDeviceKey(S.deviceKey("key-3", userID: "user-2"))
            }
            let replaced = try await store.write { try $0.insertDeviceKey(S.deviceKey("key-4", createdAt: S.at(50))) }
            try expectEqual(replaced, ["key-1"], "revoked keys")
            try await expectStorageError(.conflict, constraint: .deviceKeyID, "duplicate key id") {
                try await store.write { try $0.insertDeviceKey(S.deviceKey("key-3")) }
            }
            let keys = try await store.read { try $0.deviceKeys(userID: "user-1") }
            try expectEqual(keys.map(\.keyID), ["key-1", "key-2", "key-4"], "keys of user-1")
            try expectEqual(keys.map(\.status), [.revoked, .active, .active], "statuses")
            try expectEqual(keys.first?.revokedAt, S.at(50), "revocation time")
            try expectEqual(try await store.read { try $0.deviceKeys(userID: "user-2") }.count, 1, "keys of user-2")
        },
        Check("active keys are counted per user, revoked keys and the enrolling device's keys left out") { store in
            try await store.write { writer in
                _ = try writer.insertDeviceKey(S.deviceKey("key-1"))
                _ = try writer.insertDeviceKey(S.deviceKey("key-2", deviceID: "device-2"))
                _ = try writer.insertDeviceKey(S.deviceKey("key-3", deviceID: "device-3"))
                _ = try writer.insertDeviceKey(S.deviceKey("key-4", userID: "user-2"))
                _ = try writer.updateDeviceKeyState(
                    keyID: "key-2", userID: "user-1",
                    state: DeviceKeyState(status: .locked, failedAttempts: 3, lockedAt: S.at(1)))
                _ = try writer.updateDeviceKeyState(
                    keyID: "key-3", userID: "user-1",
                    state: DeviceKeyState(status: .revoked, failedAttempts: 0, revokedAt: S.at(2)))
            }
            let counts = try await store.read { reader in
                [
                    try reader.countActiveDeviceKeys(userID: "user-1", excludingDeviceID: "device-9"),
                    try reader.countActiveDeviceKeys(userID: "user-1", excludingDeviceID: "device-1"),
                    try reader.countActiveDeviceKeys(userID: "user-2", excludingDeviceID: "device-9"),
                    try reader.countActiveDeviceKeys(userID: "user-3", excludingDeviceID: "device-9"),
                ]
            }
            // user-1: key-1 active and key-2 locked count, key-3 revoked does not.
            try expectEqual(counts, [2, 1, 1, 0], "counts")
        },
        Check("a device key is visible only to its owner") { store in
            try await store.write { _ = try $0.insertDeviceKey(S.deviceKey("key-1")) }
            let own = try await store.read { try $0.deviceKey(id: "key-1", userID: "user-1") }
            let foreign = try await store.read { try $0.deviceKey(id: "key-1", userID: "user-2") }
            try expectEqual(own, S.deviceKey("key-1"), "own key")
            try expectEqual(foreign, nil, "someone else's key")
            let touchedForeign = try await store.write {
                try $0.touchDeviceKey(keyID: "key-1", userID: "user-2", at: S.at(1))
            }
            let lockedForeign = try await store.write {
                try $0.updateDeviceKeyState(
                    keyID: "key-1", userID: "user-2", state: DeviceKeyState(status: .revoked, failedAttempts: 0))
            }
            try expect(!touchedForeign && !lockedForeign, "a foreign caller changed the key")
        },
        Check("state updates, touches and unlocking are stored") { store in
            try await store.write { _ = try $0.insertDeviceKey(S.deviceKey("key-1")) }
            let locked = DeviceKeyState(status: .locked, failedAttempts: 5, lockedAt: S.at(30))
            let updated = try await store.write {
                try $0.updateDeviceKeyState(keyID: "key-1", userID: "user-1", state: locked)
            }
            let touched = try await store.write {
                try $0.touchDeviceKey(keyID: "key-1", userID: "user-1", at: S.at(40))
            }
            try expect(updated && touched, "update \(updated), touch \(touched)")
            let stored = try await store.read { try $0.deviceKey(id: "key-1", userID: "user-1") }
            try expectEqual(stored?.state, locked, "locked state")
            try expectEqual(stored?.lastUsedAt, S.at(40), "last used")
            let unlocked = try await store.write { try $0.unlockDeviceKeys(userID: "user-1") }
            try expectEqual(unlocked, 1, "unlocked keys")
            let after = try await store.read { try $0.deviceKey(id: "key-1", userID: "user-1") }
            try expectEqual(after?.state, DeviceKeyState(status: .active, failedAttempts: 0), "unlocked state")
        },
    ]

    static let eventChecks: [Check] = [
        Check("security events get increasing sequence numbers and are listed in order from a cursor") { store in
            let event = SecurityEvent(
                occurredAt: S.at(1), deviceTime: S.at(0), kind: .biometricFailure, userID: "user-1", keyID: "key-1",
                deviceID: "device-1", clientID: "client-1", actionHash: S.bytes(0x44), outcome: "failure",
                reasonCode: "biometry_mismatch", attempts: 3, detail: Array("{\"n\":1}".utf8))
            let minimal = SecurityEvent(occurredAt: S.at(2), kind: .login, outcome: "success")
            let stored = try await store.write { writer in
                [try writer.appendSecurityEvent(event), try writer.appendSecurityEvent(minimal)]
            }
            let third = try await store.write { try $0.appendSecurityEvent(minimal) }
            try expectEqual(stored.map(\.seq), [1, 2], "sequence numbers")
            try expectEqual(third.seq, 3, "next sequence number")
            var expected = event
            expected.seq = 1
            let all = try await store.read { try $0.securityEvents(after: 0, limit: 10) }
            try expectEqual(all.first, expected, "first event round trip")
            try expectEqual(all.map(\.seq), [1, 2, 3], "all events")
            let page = try await store.read { try $0.securityEvents(after: 1, limit: 1) }
            try expectEqual(page.map(\.seq), [2], "page after 1")
        }
    ]
}
