import Foundation
import Storage

extension StoreConformance {
    /// `reissueRefreshToken`: the retry of a rotation within the grace window, a compare-and-set on the successor.
    static let refreshRetryChecks: [Check] = [
        Check("a retry spends the unreceived successor, names and stores another; a second writes nothing") { store in
            let first = S.refreshToken(1)
            let lost = S.refreshToken(2, createdAt: S.at(10))
            let retried = S.refreshToken(3, createdAt: S.at(12))
            try await store.write { try $0.insertRefreshToken(first) }
            _ = try await store.write {
                try $0.markRefreshTokenRotated(presentedHash: first.tokenHash, now: S.at(10), replacement: lost)
            }
            let reissued = try await store.write {
                try $0.reissueRefreshToken(
                    presentedHash: first.tokenHash, supersededHash: lost.tokenHash, now: S.at(12), replacement: retried)
            }
            try expect(reissued, "retry applied")
            var rotated = first
            rotated.rotatedAt = S.at(10)
            rotated.successorHash = retried.tokenHash
            var spent = lost
            spent.rotatedAt = S.at(12)
            let family = try await store.read { try $0.refreshTokens(familyID: "family-1") }
            try expectEqual(family, [rotated, spent, retried], "family after the retry")
            // The spent successor is no longer the one named: a retry naming it writes nothing.
            let again = try await store.write {
                try $0.reissueRefreshToken(
                    presentedHash: first.tokenHash, supersededHash: lost.tokenHash, now: S.at(13),
                    replacement: S.refreshToken(4, createdAt: S.at(13)))
            }
            try expect(!again, "second retry of the spent successor applied")
            try expectEqual(
                try await store.read { try $0.refreshTokens(familyID: "family-1") }, family, "family after it")
        },
        Check("no retry once the successor was presented, the family revoked, or for another successor") { store in
            let first = S.refreshToken(1)
            let successor = S.refreshToken(2, createdAt: S.at(10))
            try await store.write { try $0.insertRefreshToken(first) }
            _ = try await store.write {
                try $0.markRefreshTokenRotated(presentedHash: first.tokenHash, now: S.at(10), replacement: successor)
            }
            let other = try await store.write {
                try $0.reissueRefreshToken(
                    presentedHash: first.tokenHash, supersededHash: S.bytes(9), now: S.at(11),
                    replacement: S.refreshToken(5, createdAt: S.at(11)))
            }
            _ = try await store.write {
                try $0.markRefreshTokenRotated(
                    presentedHash: successor.tokenHash, now: S.at(11),
                    replacement: S.refreshToken(3, createdAt: S.at(11)))
            }
            let presented = try await store.write {
                try $0.reissueRefreshToken(
                    presentedHash: first.tokenHash, supersededHash: successor.tokenHash, now: S.at(12),
                    replacement: S.refreshToken(6, createdAt: S.at(12)))
            }
            // A second family, rotated and then revoked.
            try await store.write { try $0.insertRefreshToken(S.refreshToken(7, family: "family-2")) }
            _ = try await store.write {
                try $0.markRefreshTokenRotated(
                    presentedHash: S.bytes(7), now: S.at(10), replacement: S.refreshToken(8, family: "family-2"))
            }
            _ = try await store.write { try $0.revokeRefreshTokenFamily(tokenHash: S.bytes(7), now: S.at(11)) }
            let revoked = try await store.write {
                try $0.reissueRefreshToken(
                    presentedHash: S.bytes(7), supersededHash: S.bytes(8), now: S.at(12),
                    replacement: S.refreshToken(10, family: "family-2"))
            }
            try expect(!other && !presented && !revoked, "retry results \(other), \(presented), \(revoked)")
            let counts = try await store.read {
                (try $0.refreshTokens(familyID: "family-1").count, try $0.refreshTokens(familyID: "family-2").count)
            }
            try expectEqual([counts.0, counts.1], [3, 2], "tokens per family")
        },
        Check("a replacement whose hash exists is a conflict that leaves the successor unspent") { store in
            let first = S.refreshToken(1)
            let successor = S.refreshToken(2, createdAt: S.at(10))
            try await store.write { try $0.insertRefreshToken(first) }
            _ = try await store.write {
                try $0.markRefreshTokenRotated(presentedHash: first.tokenHash, now: S.at(10), replacement: successor)
            }
            let before = try await store.read { try $0.refreshTokens(familyID: "family-1") }
            // Caught inside the body, as a caller may: the operation itself must have changed nothing.
            try await store.write { writer in
                do {
                    _ = try writer.reissueRefreshToken(
                        presentedHash: first.tokenHash, supersededHash: successor.tokenHash, now: S.at(11),
                        replacement: first)
                    throw ConformanceFailure(message: "expected a conflict", file: #fileID, line: #line)
                } catch let error as StorageError {
                    try expectEqual(error.constraint, .refreshTokenHash, "conflicting constraint")
                }
            }
            try expectEqual(
                try await store.read { try $0.refreshTokens(familyID: "family-1") }, before, "family after the conflict"
            )
        },
        Check("16 concurrent retries and a rotation of the successor: exactly one applies") { store in
            let first = S.refreshToken(1)
            let successor = S.refreshToken(2, createdAt: S.at(10))
            try await store.write { try $0.insertRefreshToken(first) }
            _ = try await store.write {
                try $0.markRefreshTokenRotated(presentedHash: first.tokenHash, now: S.at(10), replacement: successor)
            }
            let winners = try await withThrowingTaskGroup(of: Bool.self) { group in
                for n in 0..<16 {
                    group.addTask {
                        try await store.write {
                            try $0.reissueRefreshToken(
                                presentedHash: S.bytes(1), supersededHash: S.bytes(2), now: S.at(11),
                                replacement: S.refreshToken(UInt8(10 + n), createdAt: S.at(11)))
                        }
                    }
                }
                group.addTask {
                    try await store.write {
                        try $0.markRefreshTokenRotated(
                            presentedHash: S.bytes(2), now: S.at(11),
                            replacement: S.refreshToken(9, createdAt: S.at(11)))
                    }
                }
                return try await group.reduce(0) { $0 + ($1 ? 1 : 0) }
            }
            try expectEqual(winners, 1, "winners")
            let family = try await store.read { try $0.refreshTokens(familyID: "family-1") }
            try expectEqual(family.count, 3, "tokens in the family")
        },
    ]
}
