import Foundation
import Storage

extension StoreConformance {
    static let spentTokenChecks: [Check] = [
        Check("a single-use token is spent once; a second spend writes nothing; a failed write spends nothing") {
            store in
            try await store.write { try $0.insertUser(S.user(1), credential: S.credential(1, userID: "user-1")) }
            try expect(!(try await store.read { try $0.isTokenSpent(jwtID: "jti-1") }), "unspent at first")
            try expect(try await store.write { try $0.spendToken(jwtID: "jti-1", expiresAt: S.at(600)) }, "first spend")
            try expect(try await store.read { try $0.isTokenSpent(jwtID: "jti-1") }, "spent")
            try expect(
                !(try await store.write { try $0.spendToken(jwtID: "jti-1", expiresAt: S.at(600)) }), "second spend")
            try expect(!(try await store.read { try $0.isTokenSpent(jwtID: "jti-2") }), "another jti is unspent")
            // Spent in the write of the enrolment: a credential id already registered rolls the spend back.
            let taken = S.credential(1, userID: "user-1")
            try await expectStorageError(.conflict, constraint: .credentialID, "a registered credential id") {
                try await store.write { writer in
                    guard try writer.spendToken(jwtID: "jti-2", expiresAt: S.at(600)) else { return }
                    try writer.insertCredential(taken)
                }
            }
            try expect(!(try await store.read { try $0.isTokenSpent(jwtID: "jti-2") }), "rolled back with the insert")
            let fresh = S.credential(2, userID: "user-1")
            let enrolled = try await store.write { writer -> Bool in
                guard try writer.spendToken(jwtID: "jti-2", expiresAt: S.at(600)) else { return false }
                try writer.insertCredential(fresh)
                return true
            }
            try expect(enrolled, "the retry spends it")
            try expect(try await store.read { try $0.isTokenSpent(jwtID: "jti-2") }, "spent by the retry")
        },
        Check("16 concurrent enrolments with one single-use token: exactly one spends it, one credential is stored") {
            store in
            try await store.write { try $0.insertUser(S.user(1), credential: S.credential(1, userID: "user-1")) }
            let winners = try await withThrowingTaskGroup(of: Bool.self) { group in
                for n in 0..<16 {
                    group.addTask {
                        try await store.write { writer -> Bool in
                            guard try writer.spendToken(jwtID: "jti-race", expiresAt: S.at(600)) else { return false }
                            try writer.insertCredential(S.credential(100 + n, userID: "user-1"))
                            return true
                        }
                    }
                }
                return try await group.reduce(0) { $0 + ($1 ? 1 : 0) }
            }
            try expectEqual(winners, 1, "winners")
            try expectEqual(try await store.read { try $0.credentials(userID: "user-1") }.count, 2, "credentials")
        },
        Check("housekeeping purges spent tokens past their expiry only, at most `limit`") { store in
            try await store.write { writer in
                for n in 0..<3 { _ = try writer.spendToken(jwtID: "old-\(n)", expiresAt: S.at(Double(10 + n))) }
                _ = try writer.spendToken(jwtID: "new", expiresAt: S.at(1_000))
            }
            let first = try await store.write { try $0.purgeExpired(now: S.at(100), limit: 2) }
            try expectEqual(first, PurgeResult(spentTokens: 2), "first purge, limit 2")
            let second = try await store.write { try $0.purgeExpired(now: S.at(100), limit: 2) }
            try expectEqual(second, PurgeResult(spentTokens: 1), "second purge: what was left")
            // A purged token is past its expiry (its verifier refuses it anyway); the live one is still spent.
            try expect(!(try await store.read { try $0.isTokenSpent(jwtID: "old-0") }), "a purged token is forgotten")
            try expect(try await store.read { try $0.isTokenSpent(jwtID: "new") }, "a live token is still spent")
        },
    ]
}
