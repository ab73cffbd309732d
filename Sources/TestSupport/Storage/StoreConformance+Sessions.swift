import Foundation
import Storage

extension StoreConformance {
    static let sessionChecks: [Check] = [
        Check("an auth session is stored whole and consumed once; a second consumer gets nil") { store in
            let session = S.session("s1", kind: .signup)
            try await store.write { try $0.insertAuthSession(session) }
            try expectEqual(try await store.read { try $0.authSession(id: "s1") }, Optional(session), "stored session")
            try await expectStorageError(.conflict, constraint: .authSessionID, "duplicate session") {
                try await store.write { try $0.insertAuthSession(session) }
            }
            let first = try await store.write { try $0.consumeAuthSession(id: "s1", now: S.at(10)) }
            let second = try await store.write { try $0.consumeAuthSession(id: "s1", now: S.at(10)) }
            try expectEqual(first, session, "first consumption")
            try expectEqual(second, nil, "second consumption")
        },
        Check("a login's lookup finds the named credential and its user, and only what exists") { store in
            let user = S.user(1)
            let credential = S.credential(1, userID: user.id)
            try await store.write { try $0.insertUser(user, credential: credential) }
            let (found, unknownCredential, noCredential) = try await store.read { reader in
                (
                    try reader.loginCredential(id: credential.credentialID),
                    try reader.loginCredential(id: [0xEE]),
                    try reader.loginCredential(id: nil)
                )
            }
            try expectEqual(found, LoginCredential(credential: credential, user: user), "lookup")
            try expectEqual(unknownCredential, LoginCredential(credential: nil, user: nil), "unknown id")
            try expectEqual(noCredential, LoginCredential(credential: nil, user: nil), "no id")
            // The driver's lookup is the same answer as its step-by-step definition, in every case.
            let cases: [[UInt8]?] = [credential.credentialID, [0xEE], nil]
            for credentialID in cases {
                let (driver, definition) = try await store.read { reader in
                    (
                        try reader.loginCredential(id: credentialID),
                        try reader.loginCredentialStepByStep(id: credentialID)
                    )
                }
                try expectEqual(
                    driver, definition, "lookup of \(String(describing: credentialID)) against its definition")
            }
        },
        Check("a read of several statements sees all of them, even when its body ignores a failed one") { store in
            let user = S.user(1)
            try await store.write { writer in
                try writer.insertUser(user, credential: S.credential(1, userID: user.id))
                try writer.insertAuthSession(S.session("s1"))
            }
            // A driver may try a read as one statement first; a body that swallows what stops its second
            // statement must still get the answers a transaction gives.
            let (session, found) = try await store.read { reader in
                (try? reader.authSession(id: "s1"), try? reader.user(id: user.id))
            }
            try expectEqual(session?.id, "s1", "first statement")
            try expectEqual(found, user, "second statement")
        },
        Check("an expired auth session is deleted on consumption and not returned") { store in
            try await store.write { try $0.insertAuthSession(S.session("s1", expiresAt: S.at(60))) }
            let late = try await store.write { try $0.consumeAuthSession(id: "s1", now: S.at(60)) }
            try expectEqual(late, nil, "expired consumption")
            try expectEqual(try await store.read { try $0.authSession(id: "s1") }, nil, "expired session kept")
        },
        Check("16 concurrent consumers of one auth session: exactly one gets it") { store in
            try await store.write { try $0.insertAuthSession(S.session("race")) }
            let winners = try await withThrowingTaskGroup(of: Bool.self) { group in
                for _ in 0..<16 {
                    group.addTask {
                        try await store.write { try $0.consumeAuthSession(id: "race", now: S.at(1)) } != nil
                    }
                }
                return try await group.reduce(0) { $0 + ($1 ? 1 : 0) }
            }
            try expectEqual(winners, 1, "winners")
        },
        Check("16 concurrent consumers of one device challenge: exactly one consumes it, the rest see a replay") {
            store in
            try await store.write { writer in
                _ = try writer.insertDeviceKey(S.deviceKey("key-1"))
                try writer.insertDeviceChallenge(S.deviceChallenge("c1"))
            }
            let outcomes = try await withThrowingTaskGroup(of: DeviceChallengeConsumption.self) { group in
                for _ in 0..<16 {
                    group.addTask {
                        try await store.write {
                            try $0.consumeDeviceChallenge(id: "c1", keyID: "key-1", userID: "user-1", now: S.at(5))
                        }
                    }
                }
                return try await group.reduce(into: [DeviceChallengeConsumption]()) { $0.append($1) }
            }
            let consumed = outcomes.filter { if case .consumed = $0 { true } else { false } }
            let replays = outcomes.filter { if case .alreadyConsumed = $0 { true } else { false } }
            try expectEqual(consumed.count, 1, "consumers")
            try expectEqual(replays.count, 15, "replays")
        },
        Check("a device challenge is refused to another key or user, refused when expired, and consumed once") {
            store in
            let challenge = S.deviceChallenge("c1")
            try await store.write { writer in
                _ = try writer.insertDeviceKey(S.deviceKey("key-1"))
                try writer.insertDeviceChallenge(challenge)
            }
            try await expectStorageError(.conflict, constraint: .deviceChallengeID, "duplicate challenge") {
                try await store.write { try $0.insertDeviceChallenge(challenge) }
            }
            let foreignKey = try await store.write {
                try $0.consumeDeviceChallenge(id: "c1", keyID: "key-2", userID: "user-1", now: S.at(5))
            }
            let foreignUser = try await store.write {
                try $0.consumeDeviceChallenge(id: "c1", keyID: "key-1", userID: "user-2", now: S.at(5))
            }
            let expired = try await store.write {
                try $0.consumeDeviceChallenge(id: "c1", keyID: "key-1", userID: "user-1", now: S.at(120))
            }
            let consumed = try await store.write {
                try $0.consumeDeviceChallenge(id: "c1", keyID: "key-1", userID: "user-1", now: S.at(119))
            }
            try expectEqual(foreignKey, .notFound, "another key's consumption")
            try expectEqual(foreignUser, .notFound, "another user's consumption")
            try expectEqual(expired, .expired(challenge), "expired consumption")
            var done = challenge
            done.consumedAt = S.at(119)
            try expectEqual(consumed, .consumed(done), "consumption")
            try expectEqual(
                try await store.read { try $0.deviceChallenge(id: "c1") }, Optional(done), "stored challenge")
        },
        Check("purging removes expired sessions, challenges and refresh tokens only") { store in
            try await store.write { writer in
                try writer.insertAuthSession(S.session("old", expiresAt: S.at(10)))
                try writer.insertAuthSession(S.session("new", expiresAt: S.at(1_000)))
                _ = try writer.insertDeviceKey(S.deviceKey("key-1"))
                try writer.insertDeviceChallenge(S.deviceChallenge("c-old"))
                try writer.insertRefreshToken(S.refreshToken(1))
            }
            let early = try await store.write { try $0.purgeExpired(now: S.at(10), limit: 100) }
            try expectEqual(early, PurgeResult(authSessions: 1), "purge at +10 s")
            let late = try await store.write { try $0.purgeExpired(now: S.at(100_000), limit: 100) }
            try expectEqual(late, PurgeResult(authSessions: 1, deviceChallenges: 1, refreshTokens: 1), "purge later")
        },
        Check("purging deletes at most `limit` rows of each kind, the first to expire first") { store in
            try await store.write { writer in
                for n in 0..<5 {
                    try writer.insertAuthSession(S.session("s\(n)", expiresAt: S.at(Double(10 + n))))
                    var token = S.refreshToken(UInt8(n), family: "family-\(n)")
                    token.absoluteExpiresAt = S.at(Double(20 + n))
                    try writer.insertRefreshToken(token)
                }
            }
            let first = try await store.write { try $0.purgeExpired(now: S.at(1_000), limit: 2) }
            try expectEqual(first, PurgeResult(authSessions: 2, refreshTokens: 2), "first purge, limit 2")
            // The two that expired first are gone, the later ones stay.
            try expectEqual(try await store.read { try $0.authSession(id: "s1") }, nil, "s1 purged")
            try expectEqual(try await store.read { try $0.authSession(id: "s2") }?.id, "s2", "s2 kept")
            try expectEqual(try await store.read { try $0.refreshToken(hash: S.bytes(1)) }, nil, "token 1 purged")
            try expectEqual(
                try await store.read { try $0.refreshToken(hash: S.bytes(2)) }?.familyID, "family-2", "token 2 kept")
            let rest = try await store.write { try $0.purgeExpired(now: S.at(1_000), limit: 2) }
            try expectEqual(rest, PurgeResult(authSessions: 2, refreshTokens: 2), "second purge")
            let last = try await store.write { try $0.purgeExpired(now: S.at(1_000), limit: 2) }
            try expectEqual(last, PurgeResult(authSessions: 1, refreshTokens: 1), "third purge: what was left")
        },
    ]
}
