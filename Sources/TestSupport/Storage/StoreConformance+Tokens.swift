import Foundation
import Storage

extension StoreConformance {
    static let refreshTokenChecks: [Check] = [
        Check("rotating a live refresh token marks it rotated and stores its successor") { store in
            let first = S.refreshToken(1)
            try await store.write { try $0.insertRefreshToken(first) }
            try await expectStorageError(.conflict, constraint: .refreshTokenHash, "duplicate token") {
                try await store.write { try $0.insertRefreshToken(first) }
            }
            let next = S.refreshToken(2, createdAt: S.at(100))
            let outcome = try await store.write {
                try $0.rotateRefreshToken(presentedHash: first.tokenHash, now: S.at(100), replacement: next)
            }
            try expectEqual(outcome, .rotated(first), "rotation outcome")
            var rotated = first
            rotated.rotatedAt = S.at(100)
            let family = try await store.read { try $0.refreshTokens(familyID: "family-1") }
            try expectEqual(family, [rotated, next], "family after rotation")
        },
        Check("presenting a rotated refresh token again revokes its whole family") { store in
            let first = S.refreshToken(1)
            let second = S.refreshToken(2, createdAt: S.at(100))
            try await store.write { try $0.insertRefreshToken(first) }
            _ = try await store.write {
                try $0.rotateRefreshToken(presentedHash: first.tokenHash, now: S.at(100), replacement: second)
            }
            let reuse = try await store.write {
                try $0.rotateRefreshToken(
                    presentedHash: first.tokenHash, now: S.at(200), replacement: S.refreshToken(3, createdAt: S.at(200))
                )
            }
            guard case .reused(let presented) = reuse else {
                throw ConformanceFailure(message: "expected reuse, got \(reuse)", file: #fileID, line: #line)
            }
            try expectEqual(presented.revokedAt, S.at(200), "revocation time of the reused token")
            let family = try await store.read { try $0.refreshTokens(familyID: "family-1") }
            try expectEqual(family.map(\.revokedAt), [S.at(200), S.at(200)], "family revoked")
            try expectEqual(
                try await store.read { try $0.refreshToken(hash: S.bytes(3)) }, nil, "replacement stored on reuse")
            let afterwards = try await store.write {
                try $0.rotateRefreshToken(
                    presentedHash: second.tokenHash, now: S.at(300),
                    replacement: S.refreshToken(4, createdAt: S.at(300)))
            }
            guard case .revoked = afterwards else {
                throw ConformanceFailure(message: "expected revoked, got \(afterwards)", file: #fileID, line: #line)
            }
        },
        Check("expired and unknown refresh tokens are not rotated") { store in
            let token = S.refreshToken(1)
            try await store.write { try $0.insertRefreshToken(token) }
            let expired = try await store.write {
                try $0.rotateRefreshToken(
                    presentedHash: token.tokenHash, now: S.at(3_600), replacement: S.refreshToken(2))
            }
            let unknown = try await store.write {
                try $0.rotateRefreshToken(presentedHash: S.bytes(9), now: S.at(1), replacement: S.refreshToken(3))
            }
            try expectEqual(expired, .expired(token), "idle-expired token")
            try expectEqual(unknown, .notFound, "unknown token")
            let stored = try await store.read { try $0.refreshToken(hash: token.tokenHash) }
            try expectEqual(stored, token, "expired token unchanged")
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
        }
    ]
}
