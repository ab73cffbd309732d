import Foundation
import Storage

extension StoreConformance {
    static let dpopChecks: [Check] = [
        Check("a DPoP proof is remembered once per key and jti; a replay writes nothing (RFC 9449 §11.1)") { store in
            let proof = DPoPProofUse(thumbprint: "jkt-1", jwtID: "jti-1", expiresAt: S.at(60))
            try expect(try await store.write { try $0.recordDPoPProof(proof) }, "first presentation")
            try expect(!(try await store.write { try $0.recordDPoPProof(proof) }), "replay of the same proof")
            // The same jti under another key, and another jti under the same key, are other proofs.
            let otherKey = DPoPProofUse(thumbprint: "jkt-2", jwtID: "jti-1", expiresAt: S.at(60))
            let otherJTI = DPoPProofUse(thumbprint: "jkt-1", jwtID: "jti-2", expiresAt: S.at(60))
            try expect(try await store.write { try $0.recordDPoPProof(otherKey) }, "same jti, other key")
            try expect(try await store.write { try $0.recordDPoPProof(otherJTI) }, "same key, other jti")
            // Rolled back with its body: a failed request's proof is not remembered.
            let rolledBack = DPoPProofUse(thumbprint: "jkt-1", jwtID: "jti-3", expiresAt: S.at(60))
            do {
                try await store.write { writer in
                    _ = try writer.recordDPoPProof(rolledBack)
                    throw DeliberateFailure()
                }
            } catch is DeliberateFailure {}
            try expect(try await store.write { try $0.recordDPoPProof(rolledBack) }, "after a rollback")
        },
        Check("16 concurrent presentations of one DPoP proof: exactly one is accepted") { store in
            let proof = DPoPProofUse(thumbprint: "jkt-1", jwtID: "jti-race", expiresAt: S.at(60))
            let winners = try await withThrowingTaskGroup(of: Bool.self) { group in
                for _ in 0..<16 {
                    group.addTask { try await store.write { try $0.recordDPoPProof(proof) } }
                }
                return try await group.reduce(0) { $0 + ($1 ? 1 : 0) }
            }
            try expectEqual(winners, 1, "winners")
        },
        Check("housekeeping purges remembered DPoP proofs past their expiry only, at most `limit`") { store in
            try await store.write { writer in
                for n in 0..<3 {
                    _ = try writer.recordDPoPProof(
                        DPoPProofUse(thumbprint: "jkt", jwtID: "old-\(n)", expiresAt: S.at(Double(10 + n))))
                }
                _ = try writer.recordDPoPProof(DPoPProofUse(thumbprint: "jkt", jwtID: "new", expiresAt: S.at(1_000)))
            }
            let first = try await store.write { try $0.purgeExpired(now: S.at(100), limit: 2) }
            try expectEqual(first, PurgeResult(dpopProofs: 2), "first purge, limit 2")
            let second = try await store.write { try $0.purgeExpired(now: S.at(100), limit: 2) }
            try expectEqual(second, PurgeResult(dpopProofs: 1), "second purge: what was left")
            // The purged one may be presented again (its iat window is long over, so the verifier refuses it
            // anyway); the live one is still remembered.
            try expect(
                try await store.write {
                    try $0.recordDPoPProof(DPoPProofUse(thumbprint: "jkt", jwtID: "old-0", expiresAt: S.at(10)))
                }, "a purged proof is forgotten")
            try expect(
                !(try await store.write {
                    try $0.recordDPoPProof(DPoPProofUse(thumbprint: "jkt", jwtID: "new", expiresAt: S.at(1_000)))
                }), "a live proof is still remembered")
        },
        Check("a refresh token keeps its DPoP binding (RFC 9449 §5) when stored and when rotated") { store in
            let bound = {
                var token = S.refreshToken(1); token.dpopThumbprint = "jkt-1"; return token
            }()
            let successor = {
                var token = S.refreshToken(2, createdAt: S.at(5))
                token.dpopThumbprint = "jkt-1"
                return token
            }()
            try await store.write { try $0.insertRefreshToken(bound) }
            try expectEqual(
                try await store.read { try $0.refreshToken(hash: S.bytes(1)) }?.dpopThumbprint, "jkt-1", "stored")
            _ = try await store.write {
                try $0.markRefreshTokenRotated(presentedHash: S.bytes(1), now: S.at(5), replacement: successor)
            }
            try expectEqual(
                try await store.read { try $0.refreshToken(hash: S.bytes(2)) }?.dpopThumbprint, "jkt-1", "successor")
            try expectEqual(
                try await store.read { try $0.refreshToken(hash: S.bytes(3)) }?.dpopThumbprint, nil, "unknown")
            try await store.write { try $0.insertRefreshToken(S.refreshToken(4, family: "family-4")) }
            try expectEqual(
                try await store.read { try $0.refreshToken(hash: S.bytes(4)) }?.familyID, "family-4", "unbound")
            try expect(
                try await store.read { try $0.refreshToken(hash: S.bytes(4)) }?.dpopThumbprint == nil, "unbound jkt")
        },
    ]
}
