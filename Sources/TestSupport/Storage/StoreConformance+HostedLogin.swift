import Foundation
import Storage

extension StoreConformance {
    /// A login session of `userID`, every column set (ended when `endedAt` is given).
    static func loginSession(_ fill: UInt8, userID: String = "user-1", expiresAt: Date = S.at(3_600)) -> LoginSession {
        LoginSession(
            idHash: S.bytes(fill), userID: userID, realm: "main", authTime: S.at(5),
            authenticationMethods: ["hwk", "user"],
            createdAt: S.at(5), expiresAt: expiresAt)
    }

    /// The replacement of the session whose hash is `hash`, its end audited as the hosted page's logout of client
    /// `app` (user and time set by the write).
    static func replacement(_ hash: [UInt8]) -> LoginSessionReplacement {
        LoginSessionReplacement(
            sessionHash: hash,
            event: SecurityEvent(
                occurredAt: S.at(0), kind: .logout, clientID: "app", outcome: "success",
                reasonCode: "replaced"))
    }

    /// An authorization code of `userID`; `full`: every nullable column set.
    static func authorizationCode(
        _ fill: UInt8, userID: String = "user-1", full: Bool = true, expiresAt: Date = S.at(65)
    ) -> AuthorizationCode {
        AuthorizationCode(
            codeHash: S.bytes(fill), clientID: "client-1", redirectURI: "https://app.example.com/callback?x=1",
            codeChallenge: "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM", userID: userID, sessionHash: S.bytes(0x51),
            realm: "main", scope: "openid offline_access", audience: full ? "https://api.example.com/" : nil,
            organizationID: full ? "org_hosted00000001" : nil, nonce: full ? "n-0S6_WzA2Mj" : nil, authTime: S.at(5),
            authenticationMethods: ["hwk"], createdAt: S.at(5), expiresAt: expiresAt,
            dpopThumbprint: full ? "0ZcOCORZNYy-DWpqq30jZyJGHTN0d2HglBV3uiguA4I" : nil)
    }

    /// Schema v18: the hosted login's sessions and authorization codes.
    static let hostedLoginChecks: [Check] = [
        Check("login sessions and authorization codes round-trip every column; a second insert of a key writes nothing")
        { store in
            let session = loginSession(0x50)
            let codes = [authorizationCode(0x60), authorizationCode(0x61, full: false)]
            try await store.write { writer in
                try writer.insertHostedLogin(session: session, code: codes[0])
                try writer.insertHostedLogin(session: nil, code: codes[1])
            }
            let read = try await store.read { try $0.loginSession(idHash: S.bytes(0x50)) }
            try expectEqual(read, session, "session")
            for code in codes {
                let stored = try await store.read { try $0.authorizationCode(hash: code.codeHash) }
                try expectEqual(stored, code, "code")
            }
            try expectEqual(try await store.read { try $0.loginSession(idHash: S.bytes(0x59)) }, nil, "unknown")
            try expectEqual(try await store.read { try $0.authorizationCode(hash: S.bytes(0x69)) }, nil, "unknown")
            let other = loginSession(0x50, userID: "user-2")
            try expect(!(try await store.write { try $0.insert(.loginSession(other)) }), "session key taken")
            try expect(!(try await store.write { try $0.insert(.authorizationCode(codes[1])) }), "code key taken")
            let kept = try await store.read { try $0.loginSession(idHash: S.bytes(0x50)) }
            try expectEqual(kept, session, "unchanged")
        },
        Check("a login session ends once; ending a user's ends only their live ones; nil ends everyone's") { store in
            try await store.write { writer in
                for (fill, user) in [(0x50, "user-1"), (0x51, "user-1"), (0x52, "user-2"), (0x53, "user-3")] {
                    try writer.insertHostedLogin(session: loginSession(UInt8(fill), userID: user), code: nil)
                }
            }
            try expect(try await store.write { try $0.endLoginSession(idHash: S.bytes(0x50), at: S.at(10)) }, "ends")
            try expect(
                !(try await store.write { try $0.endLoginSession(idHash: S.bytes(0x50), at: S.at(11)) }), "once")
            try expect(
                !(try await store.write { try $0.endLoginSession(idHash: S.bytes(0x5F), at: S.at(11)) }), "unknown")
            try expectEqual(
                try await store.read { try $0.loginSession(idHash: S.bytes(0x50)) }?.endedAt, S.at(10), "first end kept"
            )
            try expectEqual(
                try await store.write { try $0.endLoginSessions(userID: "user-1", at: S.at(20)) }, 1,
                "user-1's live one")
            try expectEqual(
                try await store.read { try $0.loginSession(idHash: S.bytes(0x52)) }?.endedAt, nil, "user-2's is live")
            // A user's sessions end with their refresh tokens (recovery, `passkeyd sessions revoke`).
            _ = try await store.write { try $0.revokeRefreshTokens(userID: "user-2", now: S.at(30)) }
            try expectEqual(
                try await store.read { try $0.loginSession(idHash: S.bytes(0x52)) }?.endedAt, S.at(30), "revoked")
            _ = try await store.write { try $0.revokeAllRefreshTokens(now: S.at(40)) }
            try expectEqual(
                try await store.read { try $0.loginSession(idHash: S.bytes(0x53)) }?.endedAt, S.at(40), "all revoked")
            try expectEqual(
                try await store.read { try $0.loginSession(idHash: S.bytes(0x51)) }?.endedAt, S.at(20), "kept")
        },
        Check("an authorization code is redeemed once, naming the family its redemption issued") { store in
            try await store.write { try $0.insertHostedLogin(session: nil, code: authorizationCode(0x60)) }
            try expect(
                try await store.write {
                    try $0.redeemAuthorizationCode(hash: S.bytes(0x60), at: S.at(10), refreshFamily: "family-a")
                }, "first")
            try expect(
                !(try await store.write {
                    try $0.redeemAuthorizationCode(hash: S.bytes(0x60), at: S.at(11), refreshFamily: "family-b")
                }), "second")
            try expect(
                !(try await store.write {
                    try $0.redeemAuthorizationCode(hash: S.bytes(0x6F), at: S.at(11), refreshFamily: "family-c")
                }), "unknown")
            let stored = try await store.read { try $0.authorizationCode(hash: S.bytes(0x60)) }
            try expectEqual(stored?.redeemedAt, S.at(10), "redeemed at")
            try expectEqual(stored?.refreshFamily, "family-a", "the first redemption's family")
        },
        Check("16 concurrent redemptions of one authorization code: exactly one wins") { store in
            try await store.write { try $0.insertHostedLogin(session: nil, code: authorizationCode(0x60)) }
            let winners = try await withThrowingTaskGroup(of: Bool.self) { group in
                for n in 0..<16 {
                    group.addTask {
                        try await store.write {
                            try $0.redeemAuthorizationCode(hash: S.bytes(0x60), at: S.at(10), refreshFamily: "f-\(n)")
                        }
                    }
                }
                return try await group.reduce(0) { $0 + ($1 ? 1 : 0) }
            }
            try expectEqual(winners, 1, "winners")
        },
        Check("housekeeping purges login sessions and codes past their expiry only, at most `limit` of each") { store in
            try await store.write { writer in
                for n in 0..<3 {
                    try writer.insertHostedLogin(
                        session: loginSession(UInt8(0x50 + n), expiresAt: S.at(Double(10 + n))),
                        code: authorizationCode(UInt8(0x60 + n), expiresAt: S.at(Double(10 + n))))
                }
                try writer.insertHostedLogin(
                    session: loginSession(0x5A, expiresAt: S.at(1_000)),
                    code: authorizationCode(0x6A, expiresAt: S.at(1_000)))
            }
            var expected = PurgeResult()
            (expected.loginSessions, expected.authorizationCodes) = (2, 2)
            try expectEqual(try await store.write { try $0.purgeExpired(now: S.at(100), limit: 2) }, expected, "first")
            (expected.loginSessions, expected.authorizationCodes) = (1, 1)
            try expectEqual(try await store.write { try $0.purgeExpired(now: S.at(100), limit: 2) }, expected, "rest")
            try expectEqual(try await store.read { try $0.loginSession(idHash: S.bytes(0x50)) }, nil, "purged")
            try expect(try await store.read { try $0.loginSession(idHash: S.bytes(0x5A)) } != nil, "live session kept")
            try expect(try await store.read { try $0.authorizationCode(hash: S.bytes(0x6A)) } != nil, "live code kept")
        },
        Check("a user's login sessions and codes are counted as theirs and deleted with them") { store in
            try await store.write { writer in
                for n in [1, 2] {
                    try writer.insertUser(S.user(n), credential: S.credential(n, userID: "user-\(n)"))
                    try writer.insertHostedLogin(
                        session: loginSession(UInt8(0x50 + n), userID: "user-\(n)"),
                        code: authorizationCode(UInt8(0x60 + n), userID: "user-\(n)"))
                }
            }
            let before = try await store.read {
                try $0.rowsMentioningUser(id: "user-2", userHandle: S.user(2).userHandle)
            }
            try expect(before["login_sessions"] == 1 && before["authorization_codes"] == 1, "before: \(before)")
            try expect(try await store.write { try $0.deleteUser(id: "user-2") }, "deleted")
            try expectEqual(
                try await store.read { try $0.rowsMentioningUser(id: "user-2", userHandle: S.user(2).userHandle) }, [:],
                "rows left")
            try expect(try await store.read { try $0.loginSession(idHash: S.bytes(0x51)) } != nil, "user-1's kept")
            try expect(try await store.read { try $0.authorizationCode(hash: S.bytes(0x61)) } != nil, "user-1's kept")
        },
        Check("a login write stores the hosted page's session and code with the login; a spent session stores none") {
            store in
            try await store.write { writer in
                try writer.insertUser(S.user(1), credential: S.credential(1, userID: "user-1", signCount: 5))
            }
            @Sendable func login(_ session: String, code: UInt8, expected: UInt32) -> LoginCompletion {
                var login = LoginCompletion(
                    sessionID: session, sessionExpiresAt: S.at(60),
                    use: CredentialUse(
                        credentialID: S.credential(1, userID: "user-1").credentialID, expectedSignCount: expected,
                        newSignCount: expected + 1, backedUp: false, usedAt: S.at(10)),
                    userID: "user-1", refreshToken: nil,
                    event: SecurityEvent(occurredAt: S.at(10), kind: .login, userID: "user-1", outcome: "success"))
                login.loginSession = loginSession(code - 0x10)
                login.authorizationCode = authorizationCode(code)
                return login
            }
            try expectEqual(
                try await store.write { try $0.completeLogin(login("s1", code: 0x60, expected: 5)) }, .stored, "stored")
            try expect(try await store.read { try $0.loginSession(idHash: S.bytes(0x50)) } != nil, "session stored")
            try expect(try await store.read { try $0.authorizationCode(hash: S.bytes(0x60)) } != nil, "code stored")
            try expectEqual(
                try await store.write { try $0.completeLogin(login("s1", code: 0x61, expected: 6)) }, .sessionGone,
                "spent")
            try expectEqual(try await store.read { try $0.loginSession(idHash: S.bytes(0x51)) }, nil, "no session")
            try expectEqual(try await store.read { try $0.authorizationCode(hash: S.bytes(0x61)) }, nil, "no code")
            // As one operation (the server's path): more than one statement on PostgreSQL, COMMIT on its own. It
            // replaces the browser's first session, which ends in the same write at the new one's creation.
            var replacing = login("s2", code: 0x62, expected: 6)
            replacing.replacedLoginSession = replacement(S.bytes(0x50))
            try expectEqual(
                try await store.writeOperation { [replacing] in try $0.completeLogin(replacing) }, .stored,
                "stored as one operation")
            let new = try await store.read { try $0.loginSession(idHash: S.bytes(0x52)) }
            try expect(new?.endedAt == nil, "the new session is live")
            try expect(try await store.read { try $0.authorizationCode(hash: S.bytes(0x62)) } != nil, "code stored")
            let replaced = try await store.read { try $0.loginSession(idHash: S.bytes(0x50)) }
            try expectEqual(replaced?.endedAt, new?.createdAt, "the replaced session ended")
            let logout = try await store.read { try $0.securityEvents(after: 0, limit: 100) }.last
            try expect(
                logout?.kind == "logout" && logout?.reasonCode == "replaced" && logout?.userID == "user-1"
                    && logout?.occurredAt == new?.createdAt,
                "the end audited with the login: \(String(describing: logout))")
        },
        Check("a sign-up's hosted session replaces the browser's, audited; an unknown or ended one ends nothing") {
            store in
            let old = loginSession(0x50, userID: "user-7")
            try await store.write { try $0.insertHostedLogin(session: old, code: nil) }
            let new = {
                var new = loginSession(0x51)
                new.createdAt = S.at(9)
                return new
            }()
            try await store.write {
                try $0.insertHostedLogin(session: new, code: nil, replacing: replacement(old.idHash))
            }
            try expectEqual(
                try await store.read { try $0.loginSession(idHash: old.idHash) }?.endedAt, S.at(9), "old ended")
            try expectEqual(
                try await store.read { try $0.loginSession(idHash: new.idHash) }?.endedAt, nil, "new live")
            let events = try await store.read { try $0.securityEvents(after: 0, limit: 100) }
            try expect(
                events.count == 1 && events[0].kind == "logout" && events[0].userID == "user-7"
                    && events[0].occurredAt == S.at(9) && events[0].clientID == "app",
                "the replaced session's end, of its user: \(events)")
            // Replacing an ended session does not move its end; an unknown one is nothing to end.
            let third = {
                var third = loginSession(0x53)
                third.createdAt = S.at(20)
                return third
            }()
            try await store.write { writer in
                try writer.insertHostedLogin(session: third, code: nil, replacing: replacement(old.idHash))
                try writer.insertHostedLogin(
                    session: loginSession(0x54), code: nil, replacing: replacement(S.bytes(0x99)))
            }
            try expectEqual(
                try await store.read { try $0.loginSession(idHash: old.idHash) }?.endedAt, S.at(9), "end kept")
            try expectEqual(
                try await store.read { try $0.securityEvents(after: 0, limit: 100) }.count, 1, "nothing more audited")
        },
    ]
}
