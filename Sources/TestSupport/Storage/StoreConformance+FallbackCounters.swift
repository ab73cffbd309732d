import Foundation
import Storage

extension StoreConformance {
    static let fallbackCounterChecks: [Check] = [
        Check("locked counters: of 16 concurrent judge-then-count writes, exactly the limit (3) count") { store in
            let counted = try await withThrowingTaskGroup(of: Bool.self) { group in
                for _ in 0..<16 {
                    group.addTask {
                        try await store.write { writer -> Bool in
                            // Judged on the count the lock read, counted in the same write: never on a stale count.
                            let found = try writer.lockFallbackCounters(keys: ["cap", "other"])
                            guard (found["cap"]?.count ?? 0) < 3 else { return false }
                            _ = try writer.incrementFallbackCounter(key: "cap", now: S.at(1), restartingBefore: nil)
                            return true
                        }
                    }
                }
                return try await group.reduce(0) { $0 + ($1 ? 1 : 0) }
            }
            try expectEqual(counted, 3, "writes that counted")
            try expectEqual(try await store.read { try $0.fallbackCounter(key: "cap") }?.count, 3, "count")
            // What the lock returns: the counters that exist, by key.
            let found = try await store.write { try $0.lockFallbackCounters(keys: ["cap", "never", "cap"]) }
            try expectEqual(found, ["cap": FallbackCounter(key: "cap", count: 3, lastAt: S.at(1))], "found")
        },
        Check("a decrement takes one back and keeps the time; at zero the counter is gone; a missing one stays so") {
            store in
            for second in 1...2 {
                _ = try await store.write {
                    try $0.incrementFallbackCounter(key: "k", now: S.at(TimeInterval(second)), restartingBefore: nil)
                }
            }
            try await store.write { try $0.decrementFallbackCounter(key: "k") }
            try expectEqual(
                try await store.read { try $0.fallbackCounter(key: "k") },
                Optional(FallbackCounter(key: "k", count: 1, lastAt: S.at(2))), "one taken back")
            try await store.write { try $0.decrementFallbackCounter(key: "k") }
            try expectEqual(try await store.read { try $0.fallbackCounter(key: "k") }, nil, "at zero")
            try await store.write { try $0.decrementFallbackCounter(key: "never") }
            try expectEqual(try await store.read { try $0.fallbackCounter(key: "never") }, nil, "missing")
        },
        Check("counters of a kind last counted before a cutoff are purged, oldest first; others are kept") { store in
            let identities = (1...5).map { FallbackCounterKey.identity(realm: "main", identity: "user-\($0)") }
            let kept = [
                FallbackCounterKey.address(network: "192.0.2.0/24"), FallbackCounterKey.biometric(keyID: "key-1"),
                FallbackCounterKey.recoveryIdentifier(realm: "main", identifier: "user-1"), "srp_identityx",
            ]
            try await store.write { writer in
                // Identities last counted at 1 s … 5 s; the others, of other kinds, at 0 s.
                for (index, key) in identities.enumerated() {
                    _ = try writer.incrementFallbackCounter(
                        key: key, now: S.at(TimeInterval(5 - index)), restartingBefore: nil)
                }
                for key in kept {
                    _ = try writer.incrementFallbackCounter(key: key, now: S.at(0), restartingBefore: nil)
                }
            }
            let prefix = FallbackCounterKey.identityPrefix
            // Before 4 s: the identities counted at 1, 2 and 3 s (users 5, 4, 3), two per write, the oldest first.
            let first = try await store.write {
                try $0.purgeFallbackCounters(keyPrefix: prefix, lastBefore: S.at(4), limit: 2)
            }
            try expectEqual(first, 2, "first batch")
            try expectEqual(
                try await store.read { reader in try identities.map { try reader.fallbackCounter(key: $0) != nil } },
                [true, true, true, false, false], "after the first batch")
            let second = try await store.write {
                try $0.purgeFallbackCounters(keyPrefix: prefix, lastBefore: S.at(4), limit: 2)
            }
            try expectEqual(second, 1, "second batch")
            try expectEqual(
                try await store.read { reader in try identities.map { try reader.fallbackCounter(key: $0) != nil } },
                [true, true, false, false, false], "after the second batch")
            try expectEqual(
                try await store.read { reader in try kept.filter { try reader.fallbackCounter(key: $0) != nil } }, kept,
                "other kinds, older still")
        },
    ]
}
