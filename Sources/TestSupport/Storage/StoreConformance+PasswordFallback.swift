import Foundation
import Storage

extension StoreConformance {
    static func verifier(_ userID: String, identity: String, fill: UInt8 = 0x33, at seconds: TimeInterval = 1)
        -> PasswordVerifier
    {
        PasswordVerifier(
            userID: userID, realm: "main", identity: identity, salt: S.bytes(fill, count: 16),
            verifier: S.bytes(fill, count: 384), updatedAt: S.at(seconds))
    }

    static func srpSession(_ id: String, userID: String? = "user-1", expiresAt: Date = S.at(120)) -> SRPSession {
        SRPSession(
            id: id, clientID: "client-1", realm: "main", identity: "ann@example.com", userID: userID,
            salt: S.bytes(0x01, count: 16), verifier: S.bytes(0x02, count: 384),
            clientPublic: S.bytes(0x03, count: 384),
            serverSecret: S.bytes(0x04), serverPublic: S.bytes(0x05, count: 384), address: "192.0.2.7",
            createdAt: S.at(0), expiresAt: expiresAt)
    }

    static let passwordFallbackChecks: [Check] = [
        Check("a password verifier is stored whole, found by user and by realm + identity, and replaced in place") {
            store in
            let first = verifier("user-1", identity: "ann@example.com")
            try await store.write { try $0.storePasswordVerifier(first) }
            try expectEqual(
                try await store.read { try $0.passwordVerifier(userID: "user-1") }, Optional(first), "by user")
            try expectEqual(
                try await store.read { try $0.passwordVerifier(realm: "main", identity: "ann@example.com") },
                Optional(first),
                "by identity")
            try expectEqual(
                try await store.read { try $0.passwordVerifier(realm: "other", identity: "ann@example.com") }, nil,
                "other realm")
            let replacement = verifier("user-1", identity: "ann", fill: 0x44, at: 2)
            try await store.write { try $0.storePasswordVerifier(replacement) }
            try expectEqual(
                try await store.read { try $0.passwordVerifier(userID: "user-1") }, Optional(replacement), "replaced")
            try expectEqual(
                try await store.read { try $0.passwordVerifier(realm: "main", identity: "ann@example.com") }, nil,
                "old identity")
        },
        Check("verifiers are listed a page at a time in bytewise user-id order") { store in
            // "B" < "a" < "b" < "é" bytewise (not in most collations); "user-10" < "user-9".
            let ids = ["a", "é", "B", "user-9", "user-10", "b"]
            for (n, id) in ids.enumerated() {
                try await store.write { try $0.storePasswordVerifier(verifier(id, identity: "i\(n)")) }
            }
            var seen: [String] = []
            var after: String?
            while true {
                let page = try await store.read { [after] in
                    try $0.passwordVerifiers(afterUserID: after, excludingPrefix: nil, limit: 4)
                }
                seen += page.map(\.userID)
                guard page.count == 4, let last = page.last else { break }
                after = last.userID
            }
            try expectEqual(seen, ["B", "a", "b", "user-10", "user-9", "é"], "every verifier once, in order")
            try expectEqual(
                try await store.read { try $0.passwordVerifiers(afterUserID: "b", excludingPrefix: nil, limit: 10) }
                    .first,
                Optional(verifier("user-10", identity: "i4")), "a page's verifiers are whole")
            try expectEqual(
                try await store.read { try $0.passwordVerifiers(afterUserID: "é", excludingPrefix: nil, limit: 10) }
                    .count, 0, "past the end")
            // Left out where the rows are: those whose bytes start with the prefix (a longer verifier with it too).
            try await store.write { try $0.storePasswordVerifier(verifier("a", identity: "i0", fill: 0x70)) }
            var sealedLike = verifier("b", identity: "i5")
            sealedLike.verifier = [0x70, 0x70, 0x01] + S.bytes(0x33, count: 400)
            try await store.write { [sealedLike] in try $0.storePasswordVerifier(sealedLike) }
            let unsealed = try await store.read {
                try $0.passwordVerifiers(afterUserID: nil, excludingPrefix: [0x70, 0x70], limit: 10)
            }
            try expectEqual(unsealed.map(\.userID), ["B", "user-10", "user-9", "é"], "without the prefixed ones")
            try expectEqual(
                try await store.read {
                    try $0.passwordVerifiers(afterUserID: "B", excludingPrefix: [0x70, 0x70], limit: 1)
                }.map(\.userID), ["user-10"], "a page after a left-out row")
        },
        Check("a verifier's bytes are replaced only while they are the expected ones") { store in
            let stored = verifier("user-1", identity: "ann")
            try await store.write { try $0.storePasswordVerifier(stored) }
            let sealed = S.bytes(0x77, count: 424)
            try expect(
                try await store.write {
                    try $0.replacePasswordVerifier(userID: "user-1", expected: stored.verifier, replacement: sealed)
                }, "replacing the expected bytes")
            var expected = stored
            expected.verifier = sealed
            try expectEqual(
                try await store.read { try $0.passwordVerifier(userID: "user-1") }, Optional(expected),
                "only the bytes change")
            try expect(
                !(try await store.write {
                    try $0.replacePasswordVerifier(userID: "user-1", expected: stored.verifier, replacement: [1])
                }), "a second replacement of the same bytes")
            try expect(
                !(try await store.write {
                    try $0.replacePasswordVerifier(userID: "user-9", expected: stored.verifier, replacement: [1])
                }), "no such verifier")
            try expectEqual(
                try await store.read { try $0.passwordVerifier(userID: "user-1") }?.verifier, sealed, "kept")
        },
        Check("another user's identity in the same realm is a passwordIdentity conflict; nothing changes") { store in
            try await store.write { try $0.storePasswordVerifier(verifier("user-1", identity: "ann")) }
            try await store.write { try $0.storePasswordVerifier(verifier("user-2", identity: "bob")) }
            try await expectStorageError(.conflict, constraint: .passwordIdentity, "taken identity") {
                try await store.write { try $0.storePasswordVerifier(verifier("user-2", identity: "ann")) }
            }
            try expectEqual(
                try await store.read { try $0.passwordVerifier(userID: "user-2") }?.identity, "bob", "user-2 kept")
        },
        Check("an SRP session is stored whole and consumed once; an expired one is deleted and not returned") {
            store in
            let session = srpSession("srp-1")
            try await store.write { try $0.insertSRPSession(session) }
            try await expectStorageError(.conflict, constraint: .srpSessionID, "duplicate SRP session") {
                try await store.write { try $0.insertSRPSession(session) }
            }
            let first = try await store.write { try $0.consumeSRPSession(id: "srp-1", now: S.at(10)) }
            let second = try await store.write { try $0.consumeSRPSession(id: "srp-1", now: S.at(10)) }
            try expectEqual(first, session, "first consumption")
            try expectEqual(second, nil, "second consumption")
            try await store.write { try $0.insertSRPSession(srpSession("srp-2", userID: nil)) }
            try expectEqual(
                try await store.write { try $0.consumeSRPSession(id: "srp-2", now: S.at(120)) }, nil, "expired")
            try expectEqual(
                try await store.write { try $0.consumeSRPSession(id: "srp-2", now: S.at(1)) }, nil, "expired kept")
        },
        Check("16 concurrent consumers of one SRP session: exactly one gets it") { store in
            try await store.write { try $0.insertSRPSession(srpSession("race")) }
            let winners = try await withThrowingTaskGroup(of: Bool.self) { group in
                for _ in 0..<16 {
                    group.addTask {
                        try await store.write { try $0.consumeSRPSession(id: "race", now: S.at(1)) } != nil
                    }
                }
                return try await group.reduce(0) { $0 + ($1 ? 1 : 0) }
            }
            try expectEqual(winners, 1, "winners")
        },
        Check("expired SRP sessions are purged with the auth sessions") { store in
            try await store.write { writer in
                try writer.insertSRPSession(srpSession("old", expiresAt: S.at(10)))
                try writer.insertSRPSession(srpSession("new", expiresAt: S.at(1000)))
            }
            let purged = try await store.write { try $0.purgeExpired(now: S.at(20), limit: 100) }
            try expectEqual(purged.authSessions, 1, "purged sessions")
            try expectEqual(
                try await store.write { try $0.consumeSRPSession(id: "new", now: S.at(20)) }?.id, "new", "kept")
        },
        Check("a fallback counter counts, restarts after its window, resets, and counts 16 concurrent increments") {
            store in
            try expectEqual(try await store.read { try $0.fallbackCounter(key: "k") }, nil, "fresh")
            for second in 1...3 {
                _ = try await store.write {
                    try $0.incrementFallbackCounter(key: "k", now: S.at(TimeInterval(second)), restartingBefore: nil)
                }
            }
            try expectEqual(
                try await store.read { try $0.fallbackCounter(key: "k") },
                Optional(FallbackCounter(key: "k", count: 3, lastAt: S.at(3))),
                "three")
            // Last increment at 3 s, before the cutoff at 5 s: the window restarts at one.
            let restarted = try await store.write {
                try $0.incrementFallbackCounter(key: "k", now: S.at(100), restartingBefore: S.at(5))
            }
            try expectEqual(restarted, FallbackCounter(key: "k", count: 1, lastAt: S.at(100)), "restarted")
            let kept = try await store.write {
                try $0.incrementFallbackCounter(key: "k", now: S.at(101), restartingBefore: S.at(50))
            }
            try expectEqual(kept.count, 2, "within the window")
            try expectEqual(
                try await store.write { try $0.resetFallbackCounters(keys: ["k", "k", "never"]) }, 1, "reset count")
            try expectEqual(try await store.read { try $0.fallbackCounter(key: "k") }, nil, "after reset")
            try await withThrowingTaskGroup(of: Void.self) { group in
                for _ in 0..<16 {
                    group.addTask {
                        _ = try await store.write {
                            try $0.incrementFallbackCounter(key: "race", now: S.at(1), restartingBefore: nil)
                        }
                    }
                }
                try await group.waitForAll()
            }
            try expectEqual(try await store.read { try $0.fallbackCounter(key: "race") }?.count, 16, "concurrent")
        },
        Check("a server secret is stored once: a second insert returns the first value") { store in
            try expectEqual(try await store.read { try $0.serverSecret(name: "srp") }, nil, "fresh")
            let first = try await store.write { try $0.insertServerSecret(name: "srp", value: S.bytes(0x01)) }
            let second = try await store.write { try $0.insertServerSecret(name: "srp", value: S.bytes(0x02)) }
            try expectEqual(first, S.bytes(0x01), "first")
            try expectEqual(second, S.bytes(0x01), "second")
            try expectEqual(try await store.read { try $0.serverSecret(name: "srp") }, Optional(S.bytes(0x01)), "read")
        },
        Check("a server secret is replaced only while it is the expected value") { store in
            _ = try await store.write { try $0.insertServerSecret(name: "srp", value: S.bytes(0x01)) }
            let sealed = S.bytes(0x09, count: 72)
            try expect(
                try await store.write {
                    try $0.replaceServerSecret(name: "srp", expected: S.bytes(0x01), replacement: sealed)
                }, "replacing the expected value")
            try expect(
                !(try await store.write {
                    try $0.replaceServerSecret(name: "srp", expected: S.bytes(0x01), replacement: S.bytes(0x03))
                }), "a second replacement of the same value")
            try expect(
                !(try await store.write {
                    try $0.replaceServerSecret(name: "other", expected: S.bytes(0x01), replacement: S.bytes(0x03))
                }), "no such secret")
            try expectEqual(try await store.read { try $0.serverSecret(name: "srp") }, Optional(sealed), "kept")
            try expectEqual(try await store.read { try $0.serverSecret(name: "other") }, nil, "nothing created")
        },
    ]
}
