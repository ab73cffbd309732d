import Foundation
import Storage

extension StoreConformance {
    static let sessionSecurityChecks: [Check] = [
        Check("a refresh token's amr round-trips: a list, an empty list and none (a family of unknown login)") {
            store in
            try await store.write { try $0.insertUser(S.user(1), credential: S.credential(1, userID: "user-1")) }
            var password = S.refreshToken(1, family: "family-pwd")
            password.authenticationMethods = ["pwd"]
            var passkey = S.refreshToken(2, family: "family-uv")
            passkey.authenticationMethods = ["hwk", "user"]
            var empty = S.refreshToken(3, family: "family-empty")
            empty.authenticationMethods = []
            let legacy = S.refreshToken(4, family: "family-legacy")
            let tokens = [password, passkey, empty, legacy]
            let presented = password.tokenHash
            try await store.write { writer in for token in tokens { try writer.insertRefreshToken(token) } }
            for token in tokens {
                try expectEqual(
                    try await store.read { try $0.refreshToken(hash: token.tokenHash) }?.authenticationMethods,
                    token.authenticationMethods, "amr of \(token.familyID)")
            }
            // A rotation's successor keeps what it is given (the server carries the family's amr).
            var successor = S.refreshToken(5, family: "family-pwd")
            successor.authenticationMethods = ["pwd"]
            let next = successor
            try expect(
                try await store.write {
                    try $0.markRefreshTokenRotated(presentedHash: presented, now: S.at(10), replacement: next)
                }, "rotated")
            try expectEqual(
                try await store.read { try $0.refreshToken(hash: next.tokenHash) }?.authenticationMethods, ["pwd"],
                "successor's amr")
        },
        Check("the login write stores the refresh token's amr") { store in
            try await store.write { try $0.insertUser(S.user(1), credential: S.credential(1, userID: "user-1")) }
            var stored = S.refreshToken(7, family: "family-login")
            stored.authenticationMethods = ["hwk", "user"]
            let refresh = stored
            let credentialID = S.credential(1, userID: "user-1").credentialID
            let login = LoginCompletion(
                sessionID: "session-1", sessionExpiresAt: S.at(60),
                use: CredentialUse(
                    credentialID: credentialID, expectedSignCount: 0, newSignCount: 1, backedUp: false,
                    usedAt: S.at(1)),
                userID: "user-1", refreshToken: refresh,
                event: SecurityEvent(occurredAt: S.at(1), kind: .login, userID: "user-1", outcome: "success"))
            try expectEqual(try await store.write { try $0.completeLogin(login) }, .stored, "login stored")
            try expectEqual(
                try await store.read { try $0.refreshToken(hash: refresh.tokenHash) }?.authenticationMethods,
                ["hwk", "user"], "amr")
        },
        Check("a device key's DPoP thumbprint round-trips; none stays none") { store in
            var boundKey = S.deviceKey("key-bound")
            boundKey.dpopThumbprint = "jkt-of-the-app-key"
            let bound = boundKey
            let unbound = S.deviceKey("key-unbound", deviceID: "device-2")
            try await store.write { writer in
                _ = try writer.insertDeviceKey(bound)
                _ = try writer.insertDeviceKey(unbound)
            }
            try expectEqual(
                try await store.read { try $0.deviceKey(id: "key-bound", userID: "user-1") }?.dpopThumbprint,
                "jkt-of-the-app-key", "bound")
            try expectEqual(
                try await store.read { try $0.deviceKey(id: "key-unbound", userID: "user-1") }?.dpopThumbprint, nil,
                "unbound")
        },
        Check("sessionStatus: the user gone, a family revoked, every session of a user revoked, and nothing else") {
            store in
            try await store.write { try $0.insertUser(S.user(1), credential: S.credential(1, userID: "user-1")) }
            try await store.write { try $0.insertUser(S.user(2), credential: S.credential(2, userID: "user-2")) }
            let fresh = SessionStatus(userExists: true, sessionsRevokedAt: nil, familyRevoked: false)
            try expectEqual(
                try await store.read { try $0.sessionStatus(userID: "nobody", familyID: nil) },
                SessionStatus(userExists: false, sessionsRevokedAt: nil, familyRevoked: false), "unknown user")
            try expectEqual(
                try await store.read { try $0.sessionStatus(userID: "user-1", familyID: nil) }, fresh, "no family")
            try expectEqual(
                try await store.read { try $0.sessionStatus(userID: "user-1", familyID: "no-such-family") }, fresh,
                "a family without refresh tokens")
            try await store.write { writer in
                try writer.insertRefreshToken(token(1, family: "family-a", userID: "user-1"))
                try writer.insertRefreshToken(token(2, family: "family-b", userID: "user-1"))
                try writer.insertRefreshToken(token(3, family: "family-c", userID: "user-2"))
            }
            try expectEqual(
                try await store.read { try $0.sessionStatus(userID: "user-1", familyID: "family-a") }, fresh, "live")
            // One family revoked (RFC 7009): that family only, and no user-wide instant.
            try expect(
                try await store.write { try $0.revokeRefreshTokenFamily(tokenHash: S.bytes(1), now: S.at(20)) },
                "family revoked")
            try expectEqual(
                try await store.read { try $0.sessionStatus(userID: "user-1", familyID: "family-a") },
                SessionStatus(userExists: true, sessionsRevokedAt: nil, familyRevoked: true), "revoked family")
            try expectEqual(
                try await store.read { try $0.sessionStatus(userID: "user-1", familyID: "family-b") }, fresh,
                "the other family")
            // Every session of user-1: its families, and the instant, which user-2 does not get.
            _ = try await store.write { try $0.revokeRefreshTokens(userID: "user-1", now: S.at(30)) }
            try expectEqual(
                try await store.read { try $0.sessionStatus(userID: "user-1", familyID: "family-b") },
                SessionStatus(userExists: true, sessionsRevokedAt: S.at(30), familyRevoked: true), "user revoked")
            try expectEqual(
                try await store.read { try $0.sessionStatus(userID: "user-2", familyID: "family-c") }, fresh,
                "another user")
            // Every session of every user.
            _ = try await store.write { try $0.revokeAllRefreshTokens(now: S.at(40)) }
            try expectEqual(
                try await store.read { try $0.sessionStatus(userID: "user-2", familyID: "family-c") },
                SessionStatus(userExists: true, sessionsRevokedAt: S.at(40), familyRevoked: true), "all revoked")
            try expectEqual(
                try await store.read { try $0.sessionStatus(userID: "user-1", familyID: nil) }.sessionsRevokedAt,
                S.at(40), "the later instant")
            // A deleted user is gone, whatever was revoked before.
            _ = try await store.write { try $0.deleteUser(id: "user-2") }
            try expectEqual(
                try await store.read { try $0.sessionStatus(userID: "user-2", familyID: "family-c") }.userExists, false,
                "deleted user")
        },
    ]
}
