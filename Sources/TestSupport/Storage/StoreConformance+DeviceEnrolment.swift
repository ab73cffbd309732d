import Foundation
import Storage

extension StoreConformance {
    static let deviceEnrolmentChecks: [Check] = [
        Check("an enrolment nonce is consumed once, by its own user, before its expiry") { store in
            let nonce = DeviceEnrolmentNonce(
                nonce: "nonce-1", userID: "user-1", clientID: "app", createdAt: S.at(0), expiresAt: S.at(300))
            try await store.write { try $0.insertDeviceEnrolmentNonce(nonce) }
            try await expectStorageError(.conflict, constraint: .deviceEnrolmentNonce, "duplicate nonce") {
                try await store.write { try $0.insertDeviceEnrolmentNonce(nonce) }
            }
            let foreign = try await store.write {
                try $0.consumeDeviceEnrolmentNonce("nonce-1", userID: "user-2", now: S.at(1))
            }
            try expectEqual(foreign, nil, "another user's consumption")
            let first = try await store.write {
                try $0.consumeDeviceEnrolmentNonce("nonce-1", userID: "user-1", now: S.at(1))
            }
            try expectEqual(first, nonce, "first consumption")
            let second = try await store.write {
                try $0.consumeDeviceEnrolmentNonce("nonce-1", userID: "user-1", now: S.at(2))
            }
            try expectEqual(second, nil, "replay")
            let unknown = try await store.write {
                try $0.consumeDeviceEnrolmentNonce("nonce-9", userID: "user-1", now: S.at(2))
            }
            try expectEqual(unknown, nil, "unknown nonce")
        },
        Check("an expired enrolment nonce is not handed out, and purging deletes expired ones only") { store in
            try await store.write { writer in
                for (id, expiry) in [("old-1", 10.0), ("old-2", 20.0), ("fresh", 500.0)] {
                    try writer.insertDeviceEnrolmentNonce(
                        DeviceEnrolmentNonce(
                            nonce: id, userID: "user-1", clientID: "app", createdAt: S.at(0), expiresAt: S.at(expiry)))
                }
            }
            let expired = try await store.write {
                try $0.consumeDeviceEnrolmentNonce("old-1", userID: "user-1", now: S.at(10))
            }
            try expectEqual(expired, nil, "consumption at the expiry instant")
            let purged = try await store.write { try $0.purgeExpired(now: S.at(100), limit: 10) }
            try expectEqual(purged.deviceEnrolmentNonces, 1, "purged nonces (old-1 was deleted by its consumption)")
            let fresh = try await store.write {
                try $0.consumeDeviceEnrolmentNonce("fresh", userID: "user-1", now: S.at(100))
            }
            try expectEqual(fresh?.nonce, "fresh", "the unexpired nonce survives the purge")
        },
        Check("a device key keeps the attestation it was enrolled with") { store in
            var attested = S.deviceKey("key-1")
            attested.attestation = DeviceKeyAttestation(
                platform: "android-key-attestation", level: "strongbox", verifiedAt: S.at(5),
                verifiedBootState: "verified")
            let key = attested
            try await store.write { _ = try $0.insertDeviceKey(key) }
            try await store.write { _ = try $0.insertDeviceKey(S.deviceKey("key-2", deviceID: "device-2")) }
            let keys = try await store.read { try $0.deviceKeys(userID: "user-1") }
            try expectEqual(keys.map(\.attestation), [key.attestation, nil], "attestations")
        },
        Check("a user's security events are read newest first, that user's only") { store in
            try await store.write { writer in
                for (index, user) in ["user-1", "user-2", "user-1", "user-1"].enumerated() {
                    _ = try writer.appendSecurityEvent(
                        SecurityEvent(
                            occurredAt: S.at(TimeInterval(index)), storedKind: "k\(index)", userID: user,
                            outcome: "success"))
                }
            }
            let events = try await store.read { try $0.securityEvents(userID: "user-1", limit: 2) }
            try expectEqual(events.map(\.kind), ["k3", "k2"], "newest two of user-1")
            let none = try await store.read { try $0.securityEvents(userID: "user-9", limit: 10) }
            try expectEqual(none.count, 0, "events of an unknown user")
        },
    ]
}
