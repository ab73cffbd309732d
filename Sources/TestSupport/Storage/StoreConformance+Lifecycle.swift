import Foundation
import Storage

extension StoreConformance {
    static func recoveryCode(_ userID: String, _ fill: UInt8, at seconds: TimeInterval = 5) -> RecoveryCode {
        RecoveryCode(userID: userID, codeHash: S.bytes(fill), salt: S.bytes(0x5A, count: 16), createdAt: S.at(seconds))
    }

    /// Refresh token `n` of `family`, issued to `userID`.
    static func token(_ n: UInt8, family: String, userID: String) -> RefreshToken {
        var token = S.refreshToken(n, family: family)
        token.userID = userID
        return token
    }

    static let lifecycleChecks: [Check] = [
        Check("a credential is renamed and deleted only by its owner; the name is stored and cleared") { store in
            try await store.write { try $0.insertUser(S.user(1), credential: S.credential(1, userID: "user-1")) }
            try await store.write { try $0.insertUser(S.user(2), credential: S.credential(2, userID: "user-2")) }
            let id = S.credential(1, userID: "user-1").credentialID
            try expectEqual(
                try await store.write { try $0.renameCredential(id: id, userID: "user-2", name: "Stolen") }, false,
                "rename by another user")
            try expectEqual(
                try await store.write { try $0.renameCredential(id: id, userID: "user-1", name: "Laptop <b>") },
                true, "rename by owner")
            try expectEqual(try await store.read { try $0.credential(id: id) }?.name, "Laptop <b>", "stored name")
            try expectEqual(
                try await store.write { try $0.renameCredential(id: id, userID: "user-1", name: nil) }, true, "clear")
            try expectEqual(try await store.read { try $0.credential(id: id) }?.name, nil, "cleared name")
            try expectEqual(
                try await store.write { try $0.deleteCredential(id: id, userID: "user-2") }, false,
                "delete by another user")
            try expectEqual(try await store.write { try $0.deleteCredential(id: id, userID: "user-1") }, true, "delete")
            try expectEqual(try await store.read { try $0.credential(id: id) }, nil, "deleted")
            try expectEqual(
                try await store.write { try $0.deleteCredential(id: id, userID: "user-1") }, false, "deleted twice")
        },
        Check("a named credential round-trips its name through insertCredential") { store in
            try await store.write { try $0.insertUser(S.user(1), credential: S.credential(1, userID: "user-1")) }
            var named = S.credential(2, userID: "user-1")
            named.name = "Phone"
            let second = named
            try await store.write { try $0.insertCredential(second) }
            try expectEqual(try await store.read { try $0.credentials(userID: "user-1") }.last, second, "read back")
        },
        Check("a U2F credential's attestation key identifier round-trips, by id, by user and in a login's read") {
            store in
            let u2f = {
                var u2f = S.credential(1, userID: "user-1")
                u2f.aaguid = S.bytes(0, count: 16)
                u2f.attestationKeyIdentifier = "8e66c7e2ca5a1c7e4d54ab0b7b8d8c2a2f0e9c44"
                return u2f
            }()
            try await store.write { try $0.insertUser(S.user(1), credential: u2f) }
            try expectEqual(try await store.read { try $0.credential(id: u2f.credentialID) }, Optional(u2f), "by id")
            try expectEqual(try await store.read { try $0.credentials(userID: "user-1") }, [u2f], "by user")
            try expectEqual(
                try await store.read { try $0.loginCredential(id: u2f.credentialID) }.credential, Optional(u2f),
                "login read")
        },
        Check("recovery codes are replaced as a set and each is consumed once") { store in
            try await store.write { try $0.insertUser(S.user(1), credential: S.credential(1, userID: "user-1")) }
            try await store.write { try $0.insertUser(S.user(2), credential: S.credential(2, userID: "user-2")) }
            let first = [recoveryCode("user-1", 0x01), recoveryCode("user-1", 0x02)]
            try expectEqual(
                try await store.write { try $0.replaceRecoveryCodes(userID: "user-1", with: first) }, 0, "none revoked")
            try expectEqual(try await store.read { try $0.recoveryCodes(userID: "user-1") }, first, "stored")
            try expectEqual(
                try await store.write { try $0.consumeRecoveryCode(userID: "user-2", codeHash: S.bytes(0x01)) }, false,
                "another user's code")
            try expectEqual(
                try await store.write { try $0.consumeRecoveryCode(userID: "user-1", codeHash: S.bytes(0x01)) }, true,
                "consumed")
            try expectEqual(
                try await store.write { try $0.consumeRecoveryCode(userID: "user-1", codeHash: S.bytes(0x01)) }, false,
                "consumed twice")
            let second = [recoveryCode("user-1", 0x03, at: 9)]
            try expectEqual(
                try await store.write { try $0.replaceRecoveryCodes(userID: "user-1", with: second) }, 1, "one revoked")
            try expectEqual(
                try await store.write { try $0.consumeRecoveryCode(userID: "user-1", codeHash: S.bytes(0x02)) }, false,
                "old set revoked")
            try expectEqual(try await store.read { try $0.recoveryCodes(userID: "user-1") }, second, "new set")
            try await expectStorageError(.notFound, "unknown user") {
                try await store.write { try $0.replaceRecoveryCodes(userID: "user-9", with: []) }
            }
            try await expectStorageError(.conflict, constraint: .foreignKey, "another user's code") {
                try await store.write {
                    try $0.replaceRecoveryCodes(userID: "user-1", with: [recoveryCode("user-2", 7)])
                }
            }
        },
        Check("revoking a user's refresh tokens revokes every family of that user only") { store in
            let a = token(1, family: "family-a", userID: "user-1")
            let b = token(2, family: "family-b", userID: "user-1")
            let other = token(3, family: "family-c", userID: "user-2")
            try await store.write { writer in
                for token in [a, b, other] { try writer.insertRefreshToken(token) }
            }
            try expectEqual(
                try await store.write { try $0.revokeRefreshTokens(userID: "user-1", now: S.at(60)) }, 2, "families")
            try expectEqual(try await store.read { try $0.refreshToken(hash: a.tokenHash) }?.revokedAt, S.at(60), "a")
            try expectEqual(try await store.read { try $0.refreshToken(hash: b.tokenHash) }?.revokedAt, S.at(60), "b")
            try expectEqual(
                try await store.read { try $0.refreshToken(hash: other.tokenHash) }?.revokedAt, nil, "other")
            try expectEqual(
                try await store.write { try $0.revokeRefreshTokens(userID: "user-1", now: S.at(61)) }, 0, "again")
        },
        Check("revoking every refresh token revokes the live ones of every user, and counts their families") { store in
            var revoked = token(4, family: "family-d", userID: "user-3")
            revoked.revokedAt = S.at(30)
            let spent = revoked
            let live = [
                token(1, family: "family-a", userID: "user-1"), token(2, family: "family-a", userID: "user-1"),
                token(3, family: "family-c", userID: "user-2"),
            ]
            try await store.write { writer in
                for token in live + [spent] { try writer.insertRefreshToken(token) }
            }
            try expectEqual(try await store.write { try $0.revokeAllRefreshTokens(now: S.at(60)) }, 2, "families")
            for token in live {
                try expectEqual(
                    try await store.read { try $0.refreshToken(hash: token.tokenHash) }?.revokedAt, S.at(60),
                    token.familyID)
            }
            try expectEqual(
                try await store.read { try $0.refreshToken(hash: spent.tokenHash) }?.revokedAt, S.at(30),
                "an earlier revocation keeps its time")
            try expectEqual(try await store.write { try $0.revokeAllRefreshTokens(now: S.at(61)) }, 0, "again")
        },
        Check("users are listed in id order, a page at a time") { store in
            for n in [3, 1, 2] {
                try await store.write { try $0.insertUser(S.user(n), credential: S.credential(n, userID: "user-\(n)")) }
            }
            try expectEqual(
                try await store.read { try $0.users(afterID: nil, limit: 2) }.map(\.id), ["user-1", "user-2"],
                "first page")
            try expectEqual(
                try await store.read { try $0.users(afterID: "user-2", limit: 2) }.map(\.id), ["user-3"], "second page")
        },
        Check("deleting a user leaves no row naming them outside the audit log, and others' rows untouched") { store in
            // user-2 is deleted; user-1 keeps everything (its id is not a substring of user-2's).
            for n in [1, 2] {
                let userID = "user-\(n)"
                try await store.write { writer in
                    try writer.insertUser(S.user(n), credential: S.credential(n, userID: userID))
                    try writer.insertCredential(S.credential(n + 10, userID: userID))
                    var token = S.refreshToken(UInt8(n), family: "family-\(n)")
                    token.userID = userID
                    try writer.insertRefreshToken(token)
                    _ = try writer.insertDeviceKey(S.deviceKey("key-\(n)", userID: userID))
                    try writer.insertDeviceChallenge(
                        S.deviceChallenge("challenge-\(n)", keyID: "key-\(n)", userID: userID))
                    try writer.insertDeviceEnrolmentNonce(
                        DeviceEnrolmentNonce(
                            nonce: "nonce-\(n)", userID: userID, clientID: "app", createdAt: S.at(0),
                            expiresAt: S.at(300)))
                    try writer.storePasswordVerifier(verifier(userID, identity: "u\(n)@example.com"))
                    try writer.insertSRPSession(srpSession("srp-\(n)", userID: userID))
                    _ = try writer.replaceRecoveryCodes(userID: userID, with: [recoveryCode(userID, UInt8(n))])
                    var session = S.session("enrol-\(n)", kind: .signup)
                    session.userHandle = S.user(n).userHandle
                    session.email = nil
                    try writer.insertAuthSession(session)
                    _ = try writer.appendSecurityEvent(
                        SecurityEvent(occurredAt: S.at(1), storedKind: "test", userID: userID, outcome: "success"))
                }
            }
            let before = try await store.read {
                try $0.rowsMentioningUser(id: "user-2", userHandle: S.user(2).userHandle)
            }
            try expect(
                before["users"] == 1 && before["credentials"] == 2 && before["recovery_codes"] == 1, "before: \(before)"
            )
            try expectEqual(try await store.write { try $0.deleteUser(id: "user-2") }, true, "deleted")
            try expectEqual(
                try await store.read { try $0.rowsMentioningUser(id: "user-2", userHandle: S.user(2).userHandle) }, [:],
                "rows left")
            try expectEqual(try await store.write { try $0.deleteUser(id: "user-2") }, false, "deleted twice")
            let kept = try await store.read {
                try $0.rowsMentioningUser(id: "user-1", userHandle: S.user(1).userHandle)
            }
            try expect(
                kept["users"] == 1 && kept["credentials"] == 2 && kept["device_keys"] == 1, "others kept: \(kept)")
            try expectEqual(
                try await store.read { try $0.securityEvents(userID: "user-2", limit: 10) }.count, 1, "audit kept")
        },
    ]
}
