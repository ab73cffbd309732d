import Foundation
import Storage

extension StoreConformance {
    /// Schema v16: the spent sealed auth sessions (`StoreWriter.spendAuthSession`), single use across nodes.
    static let spentAuthSessionChecks: [Check] = [
        Check("a sealed auth session is spent once; a second spend writes nothing; a failed write spends nothing") {
            store in
            try expect(!(try await store.read { try $0.isAuthSessionSpent(id: "a1") }), "unspent at first")
            try expect(try await store.write { try $0.spendAuthSession(id: "a1", expiresAt: S.at(60)) }, "first spend")
            try expect(try await store.read { try $0.isAuthSessionSpent(id: "a1") }, "spent")
            try expect(
                !(try await store.write { try $0.spendAuthSession(id: "a1", expiresAt: S.at(60)) }), "second spend")
            try expect(!(try await store.read { try $0.isAuthSessionSpent(id: "a2") }), "another id is unspent")
            // Spent in the write of the ceremony: a write that fails after the spend rolls it back (a 503 leaves the
            // session for the retry).
            let taken = S.refreshToken(1)
            try await store.write { try $0.insertRefreshToken(taken) }
            try await expectStorageError(.conflict, constraint: .refreshTokenHash, "a stored refresh token") {
                try await store.write { writer in
                    guard try writer.spendAuthSession(id: "a2", expiresAt: S.at(60)) else { return }
                    try writer.insertRefreshToken(taken)
                }
            }
            try expect(!(try await store.read { try $0.isAuthSessionSpent(id: "a2") }), "rolled back with the write")
            // Spent tokens are another table: the same string there is not a spent session.
            _ = try await store.write { try $0.spendToken(jwtID: "a3", expiresAt: S.at(60)) }
            try expect(!(try await store.read { try $0.isAuthSessionSpent(id: "a3") }), "a jti is not a session")
        },
        Check("16 concurrent spends of one sealed auth session: exactly one wins") { store in
            let winners = try await withThrowingTaskGroup(of: Bool.self) { group in
                for _ in 0..<16 {
                    group.addTask { try await store.write { try $0.spendAuthSession(id: "race", expiresAt: S.at(60)) } }
                }
                return try await group.reduce(0) { $0 + ($1 ? 1 : 0) }
            }
            try expectEqual(winners, 1, "winners")
        },
        Check("housekeeping purges spent auth sessions past their expiry only, at most `limit`") { store in
            try await store.write { writer in
                for n in 0..<3 { _ = try writer.spendAuthSession(id: "old-\(n)", expiresAt: S.at(Double(10 + n))) }
                _ = try writer.spendAuthSession(id: "new", expiresAt: S.at(1_000))
            }
            let first = try await store.write { try $0.purgeExpired(now: S.at(100), limit: 2) }
            try expectEqual(first, PurgeResult(spentAuthSessions: 2), "first purge, limit 2")
            let second = try await store.write { try $0.purgeExpired(now: S.at(100), limit: 2) }
            try expectEqual(second, PurgeResult(spentAuthSessions: 1), "second purge: what was left")
            // A purged id is past its session's expiry (the grant refuses the session anyway); the live one stays.
            try expect(!(try await store.read { try $0.isAuthSessionSpent(id: "old-0") }), "a purged id is forgotten")
            try expect(try await store.read { try $0.isAuthSessionSpent(id: "new") }, "a live id is still spent")
        },
    ]
}
