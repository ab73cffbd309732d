import Foundation
import Storage

extension StoreConformance {
    static let refreshTokenChecks: [Check] = [
        Check("marking a refresh token rotated stores its successor; a second mark writes nothing") { store in
            let first = S.refreshToken(1)
            try await store.write { try $0.insertRefreshToken(first) }
            try await expectStorageError(.conflict, constraint: .refreshTokenHash, "duplicate token") {
                try await store.write { try $0.insertRefreshToken(first) }
            }
            let next = S.refreshToken(2, createdAt: S.at(100))
            let marked = try await store.write {
                try $0.markRefreshTokenRotated(presentedHash: first.tokenHash, now: S.at(100), replacement: next)
            }
            try expect(marked, "first mark applied")
            var rotated = first
            rotated.rotatedAt = S.at(100)
            rotated.successorHash = next.tokenHash
            let family = try await store.read { try $0.refreshTokens(familyID: "family-1") }
            try expectEqual(family, [rotated, next], "family after rotation")
            // Single use: the same token is not marked twice, and the second replacement is not stored.
            let again = try await store.write {
                try $0.markRefreshTokenRotated(
                    presentedHash: first.tokenHash, now: S.at(200),
                    replacement: S.refreshToken(3, createdAt: S.at(200)))
            }
            try expect(!again, "second mark applied")
            try expectEqual(
                try await store.read { try $0.refreshTokens(familyID: "family-1") }, family, "family after second mark")
        },
        Check("revoked and unknown refresh tokens are not marked rotated") { store in
            let token = S.refreshToken(1)
            try await store.write { try $0.insertRefreshToken(token) }
            _ = try await store.write { try $0.revokeRefreshTokenFamily(tokenHash: token.tokenHash, now: S.at(5)) }
            let revoked = try await store.write {
                try $0.markRefreshTokenRotated(
                    presentedHash: token.tokenHash, now: S.at(10), replacement: S.refreshToken(2))
            }
            let unknown = try await store.write {
                try $0.markRefreshTokenRotated(presentedHash: S.bytes(9), now: S.at(10), replacement: S.refreshToken(3))
            }
            try expect(!revoked && !unknown, "mark results \(revoked), \(unknown)")
            var expected = token
            expected.revokedAt = S.at(5)
            try expectEqual(
                try await store.read { try $0.refreshTokens(familyID: "family-1") }, [expected], "nothing written")
        },
        Check("a replacement whose hash exists is a conflict that leaves the presented token unmarked") { store in
            let first = S.refreshToken(1)
            let other = S.refreshToken(2, family: "family-2")
            try await store.write { writer in
                try writer.insertRefreshToken(first)
                try writer.insertRefreshToken(other)
            }
            // Caught inside the body, as a caller may: the operation itself must have changed nothing.
            let stored = try await store.write { writer -> RefreshToken? in
                do {
                    _ = try writer.markRefreshTokenRotated(
                        presentedHash: first.tokenHash, now: S.at(1), replacement: other)
                    throw ConformanceFailure(message: "expected a conflict", file: #fileID, line: #line)
                } catch let error as StorageError {
                    try expectEqual(error.constraint, .refreshTokenHash, "conflicting constraint")
                }
                return try writer.refreshToken(hash: first.tokenHash)
            }
            try expectEqual(stored, first, "presented token after the conflict")
        },
        Check("16 concurrent marks of one refresh token: exactly one applies, one successor is stored") { store in
            try await store.write { try $0.insertRefreshToken(S.refreshToken(1)) }
            let winners = try await withThrowingTaskGroup(of: Bool.self) { group in
                for n in 0..<16 {
                    group.addTask {
                        try await store.write {
                            try $0.markRefreshTokenRotated(
                                presentedHash: S.bytes(1), now: S.at(5),
                                replacement: S.refreshToken(UInt8(10 + n), createdAt: S.at(5)))
                        }
                    }
                }
                return try await group.reduce(0) { $0 + ($1 ? 1 : 0) }
            }
            try expectEqual(winners, 1, "winners")
            let family = try await store.read { try $0.refreshTokens(familyID: "family-1") }
            try expectEqual(family.count, 2, "tokens in the family")
        },
        Check("revoking by token hash revokes the family (RFC 7009); an unknown hash reports false") { store in
            try await store.write { writer in
                try writer.insertRefreshToken(S.refreshToken(1))
                try writer.insertRefreshToken(S.refreshToken(2, createdAt: S.at(1)))
                try writer.insertRefreshToken(S.refreshToken(3, family: "family-2"))
            }
            let revoked = try await store.write { try $0.revokeRefreshTokenFamily(tokenHash: S.bytes(2), now: S.at(9)) }
            let unknown = try await store.write { try $0.revokeRefreshTokenFamily(tokenHash: S.bytes(7), now: S.at(9)) }
            try expect(revoked && !unknown, "revocation results \(revoked), \(unknown)")
            let families = try await store.read {
                (try $0.refreshTokens(familyID: "family-1"), try $0.refreshTokens(familyID: "family-2"))
            }
            try expectEqual(families.0.map(\.revokedAt), [S.at(9), S.at(9)], "revoked family")
            try expectEqual(families.1.map(\.revokedAt), [nil], "other family")
        },
    ]

    static let signingKeyChecks: [Check] = [
        Check("signing keys are listed oldest first and retired once") { store in
            let old = SigningKey(
                kid: "k1", algorithm: "ES256", privateKey: S.bytes(1, count: 138), publicKey: S.bytes(2, count: 91),
                createdAt: S.at(0))
            var new = old
            new.kid = "k2"
            new.createdAt = S.at(10)
            try await store.write { [new] writer in
                try writer.insertSigningKey(new)
                try writer.insertSigningKey(old)
            }
            try await expectStorageError(.conflict, constraint: .signingKeyID, "duplicate kid") {
                try await store.write { try $0.insertSigningKey(old) }
            }
            let first = try await store.write { try $0.retireSigningKey(kid: "k1", at: S.at(20)) }
            let again = try await store.write { try $0.retireSigningKey(kid: "k1", at: S.at(30)) }
            let unknown = try await store.write { try $0.retireSigningKey(kid: "k9", at: S.at(30)) }
            try expect(first && !again && !unknown, "retire results \(first), \(again), \(unknown)")
            var retired = old
            retired.retiredAt = S.at(20)
            try expectEqual(try await store.read { try $0.signingKeys() }, [retired, new], "signing keys")
        },
        Check("a signing key's private key is replaced only while it is still the one expected, nothing else changes") {
            store in
            let stored = SigningKey(
                kid: "k1", algorithm: "RS256", privateKey: S.bytes(1, count: 1_218), publicKey: S.bytes(2, count: 294),
                createdAt: S.at(0), retiredAt: S.at(5))
            try await store.write { try $0.insertSigningKey(stored) }
            let sealed = S.bytes(3, count: 1_250)
            let replaced = try await store.write {
                try $0.replaceSigningKeyPrivateKey(kid: "k1", expected: stored.privateKey, replacement: sealed)
            }
            // A second node re-encrypting the same key at once expected the old bytes: it loses.
            let late = try await store.write {
                try $0.replaceSigningKeyPrivateKey(
                    kid: "k1", expected: stored.privateKey, replacement: S.bytes(4, count: 9))
            }
            let unknown = try await store.write {
                try $0.replaceSigningKeyPrivateKey(kid: "k9", expected: stored.privateKey, replacement: sealed)
            }
            try expect(replaced && !late && !unknown, "replace results \(replaced), \(late), \(unknown)")
            var expected = stored
            expected.privateKey = sealed
            try expectEqual(try await store.read { try $0.signingKeys() }, [expected], "signing keys")
        },
    ]
}
