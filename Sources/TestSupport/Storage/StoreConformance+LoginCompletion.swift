import Foundation
import Storage

extension StoreConformance {
    /// User 1 with credential 1 (counter 5), the login session "spent" already spent; device keys key-1 (locked) and key-2 of
    /// user 1, key-9 (locked) of user 2; user 1's password verifier in a realm whose name is not ASCII (its
    /// counter key spells the length in UTF-8 bytes); one counter of each kind for user 1, and counters of others.
    /// User 3 has an email, a phone number and a username, with a recovery counter on the last two; user 4 has no
    /// lock at all (a login's common case).
    private static func loginFixture(_ store: any Store) async throws -> Credential {
        let credential = S.credential(1, userID: "user-1", signCount: 5)
        let locked = DeviceKeyState(status: .locked, failedAttempts: 5, lockedAt: S.at(3))
        try await store.write { writer in
            try writer.insertUser(S.user(1), credential: credential)
            try writer.insertUser(S.user(2), credential: S.credential(2, userID: "user-2"))
            var three = S.user(3, username: "user.three")
            three.phoneNumber = "+15550100003"
            try writer.insertUser(three, credential: S.credential(3, userID: "user-3"))
            try writer.insertUser(S.user(4), credential: S.credential(4, userID: "user-4"))
            _ = try writer.spendAuthSession(id: "spent", expiresAt: S.at(60))
            _ = try writer.insertDeviceKey(S.deviceKey("key-1"))
            _ = try writer.insertDeviceKey(S.deviceKey("key-2", deviceID: "device-2"))
            _ = try writer.insertDeviceKey(S.deviceKey("key-9", userID: "user-2"))
            _ = try writer.updateDeviceKeyState(keyID: "key-1", userID: "user-1", state: locked)
            _ = try writer.updateDeviceKeyState(keyID: "key-9", userID: "user-2", state: locked)
            var verifier = verifier("user-1", identity: "änn")
            verifier.realm = "rëalm"
            try writer.storePasswordVerifier(verifier)
            for key in userOneCounters + otherCounters {
                _ = try writer.incrementFallbackCounter(key: key, now: S.at(2), restartingBefore: nil)
            }
        }
        return credential
    }

    /// What a login of user 1 lifts: the biometric counters of their keys, then their identity locks (the recovery
    /// counter of their email, the password counter of their SRP identity).
    private static let userOneCounters = [
        FallbackCounterKey.biometric(keyID: "key-1"), FallbackCounterKey.biometric(keyID: "key-2"),
        FallbackCounterKey.recoveryIdentifier(realm: "main", identifier: "u1@example.com"),
        FallbackCounterKey.identity(realm: "rëalm", identity: "änn"),
    ]
    /// What it does not: another user's key and identifier, networks, the same identity or identifier in another
    /// realm.
    private static let otherCounters = [
        FallbackCounterKey.biometric(keyID: "key-9"), FallbackCounterKey.address(network: "192.0.2.0/24"),
        FallbackCounterKey.identity(realm: "main", identity: "änn"),
        FallbackCounterKey.recoveryIdentifier(realm: "main", identifier: "u2@example.com"),
        FallbackCounterKey.recoveryIdentifier(realm: "rëalm", identifier: "u1@example.com"),
        FallbackCounterKey.recoveryAddress(network: "192.0.2.0/24"),
        FallbackCounterKey.recoveryIdentifier(realm: "main", identifier: "+15550100003"),
        FallbackCounterKey.recoveryIdentifier(realm: "main", identifier: "user.three"),
    ]

    private static func completion(
        expecting count: UInt32 = 5, refresh: RefreshToken? = loginRefresh, user n: Int = 1
    ) -> LoginCompletion {
        let credential = S.credential(n, userID: "user-\(n)")
        return LoginCompletion(
            sessionID: "s1", sessionExpiresAt: S.at(60),
            use: CredentialUse(
                credentialID: credential.credentialID, expectedSignCount: count, newSignCount: 6, backedUp: true,
                usedAt: S.at(10)),
            userID: credential.userID, refreshToken: refresh,
            event: SecurityEvent(
                occurredAt: S.at(10), kind: .login, userID: credential.userID, clientID: "client-1",
                outcome: "success", credentialID: credential.credentialID, familyID: refresh?.familyID))
    }

    /// A hosted login's write (`HostedLogin.complete`): no refresh token, a login session and an authorization code.
    private static func hostedCompletion(expecting count: UInt32 = 5) -> LoginCompletion {
        var login = completion(expecting: count, refresh: nil)
        login.loginSession = loginSession(0x70)
        login.authorizationCode = authorizationCode(0x71)
        return login
    }

    /// The refresh token a login stores: every column set, the family's API included.
    private static let loginRefresh: RefreshToken = {
        var token = S.refreshToken(7)
        token.audience = "https://api.example.com/"
        token.dpopThumbprint = "dpop-thumbprint"
        token.organizationID = "org_login0000000001"
        return token
    }()

    /// What the fixture's rows look like after a login write, for comparing against expectations.
    private struct LoginEffects: Equatable, Sendable {
        var spent: Bool
        var credential: Credential?
        var keyStates: [DeviceKeyState?]
        var counters: [String]
        var refresh: RefreshToken?
        /// A hosted login's session and code (`hostedCompletion`), as stored.
        var loginSession: LoginSession? = nil
        var authorizationCode: AuthorizationCode? = nil
        var events: [String]
        var pending: Int
        /// Credentials 2–4 and their users' events (the other users' logins).
        var otherCredentials: [Credential?] = []
        var otherEvents: [[String]] = []
    }

    private static func effects(_ store: any Store) async throws -> LoginEffects {
        try await store.read { try effects($0) }
    }

    private static func effects(_ reader: any StoreReader) throws -> LoginEffects {
        LoginEffects(
            spent: try reader.isAuthSessionSpent(id: "s1"),
            credential: try reader.credential(id: S.credential(1, userID: "user-1").credentialID),
            keyStates: [
                try reader.deviceKey(id: "key-1", userID: "user-1")?.state,
                try reader.deviceKey(id: "key-2", userID: "user-1")?.state,
                try reader.deviceKey(id: "key-9", userID: "user-2")?.state,
            ],
            counters: try (userOneCounters + otherCounters).filter { try reader.fallbackCounter(key: $0) != nil },
            refresh: try reader.refreshToken(hash: S.refreshToken(7).tokenHash),
            loginSession: try reader.loginSession(idHash: loginSession(0x70).idHash),
            authorizationCode: try reader.authorizationCode(hash: authorizationCode(0x71).codeHash),
            events: try reader.securityEvents(userID: "user-1", limit: 10).map { "\($0.kind) \($0.outcome)" },
            pending: try reader.pendingSecurityEventCount(),
            otherCredentials: try (2...4).map { try reader.credential(id: S.credential($0, userID: "").credentialID) },
            otherEvents: try (2...4).map { n in
                try reader.securityEvents(userID: "user-\(n)", limit: 10).map { "\($0.kind) \($0.outcome)" }
            })
    }

    /// The outcome of `login` and, when it wrote, what it left, from the fixture, in a write rolled back after.
    private static func bothWays(_ store: any Store, _ login: LoginCompletion, stepByStep: Bool) async throws
        -> LoginAnswer
    {
        try await rolledBack(store) { writer in
            let outcome: LoginCompletion.Outcome
            do throws(StorageError) {
                outcome = stepByStep ? try writer.completeLoginStepByStep(login) : try writer.completeLogin(login)
            } catch {
                // A failed statement may abort the transaction (PostgreSQL): the error is the whole answer, by
                // its code and constraint (the messages are the engines' own).
                return LoginAnswer(outcome: nil, error: "\(error.code) \(String(describing: error.constraint))")
            }
            return LoginAnswer(outcome: outcome, effects: try effects(writer))
        }
    }

    /// A login write's answer: its outcome or error, and what it left.
    private struct LoginAnswer: Equatable, Sendable {
        var outcome: LoginCompletion.Outcome?
        var error: String?
        var effects: LoginEffects?
    }

    /// The effects `before` a login of user 1 (`completion()`) with `credential`, once it stored.
    private static func stored(_ before: LoginEffects, credential: Credential) -> LoginEffects {
        var expected = before
        expected.spent = true
        expected.credential = credential
        expected.credential?.signCount = 6
        expected.credential?.backedUp = true
        expected.credential?.lastUsedAt = S.at(10)
        let active = DeviceKeyState(status: .active, failedAttempts: 0)
        expected.keyStates = [active, active, before.keyStates[2]]
        expected.counters = otherCounters
        expected.refresh = loginRefresh
        expected.events = ["login success"]
        expected.pending = before.pending + 1
        return expected
    }

    static let loginCompletionChecks: [Check] = [
        Check("a login write spends the session, moves the counter, lifts the user's locks and stores the rest") {
            store in
            let credential = try await loginFixture(store)
            let before = try await effects(store)
            let outcome = try await store.write { try $0.completeLogin(completion()) }
            try expectEqual(outcome, .stored, "outcome")
            try expectEqual(
                try await effects(store), stored(before, credential: credential), "after the login write")
        },
        Check("a login write as one operation (writeOperation) has the same effects and answers") { store in
            let credential = try await loginFixture(store)
            let before = try await effects(store)
            var spent = completion()
            spent.sessionID = "spent"
            try expectEqual(
                try await store.writeOperation { [spent] in try $0.completeLogin(spent) }, .sessionGone,
                "spent before")
            try expectEqual(try await effects(store), before, "after the session spent before")
            try expectEqual(try await store.writeOperation { try $0.completeLogin(completion()) }, .stored, "stored")
            let after = try await effects(store)
            try expectEqual(after, stored(before, credential: credential), "after the login write")
            try expectEqual(
                try await store.writeOperation { try $0.completeLogin(completion()) }, .sessionGone, "again")
            try expectEqual(try await effects(store), after, "after the second presentation")
        },
        Check("a login reads back what its write did: with a refresh token, stored or which refusal") { store in
            _ = try await loginFixture(store)
            let login = completion()
            try expectEqual(
                try await store.read { try login.recordedOutcome(in: $0) }, .sessionGone, "not written, counter unmoved"
            )
            try expectEqual(try await store.write { try $0.completeLogin(login) }, .stored, "written")
            try expectEqual(try await store.read { try login.recordedOutcome(in: $0) }, .stored, "after the write")
            var raced = completion(expecting: 4, refresh: S.refreshToken(8))
            raced.sessionID = "s2"
            try expectEqual(try await store.write { [raced] in try $0.completeLogin(raced) }, .counterRace, "raced")
            try expectEqual(
                try await store.read { [raced] in try raced.recordedOutcome(in: $0) }, .counterRace, "after the race")
        },
        Check("a login without a refresh token reads back its counter or its event; their absence is unknown (nil)") {
            store in
            _ = try await loginFixture(store)
            let login = completion(refresh: nil)
            try expectEqual(try await store.read { try login.recordedOutcome(in: $0) }, nil, "not written")
            try expectEqual(try await store.write { try $0.completeLogin(login) }, .stored, "written")
            try expectEqual(try await store.read { try login.recordedOutcome(in: $0) }, .stored, "by the counter")
            // A later login of the same credential moves the counter and its last use: the event still tells.
            var later = completion(expecting: 6, refresh: nil)
            later.sessionID = "s2"
            later.use.newSignCount = 7
            later.use.usedAt = S.at(20)
            later.event.occurredAt = S.at(20)
            try expectEqual(
                try await store.write { [later] in try $0.completeLogin(later) }, .stored, "the later login")
            try expectEqual(try await store.read { try login.recordedOutcome(in: $0) }, .stored, "by the event")
            var other = completion(refresh: nil)
            other.use.usedAt = S.at(15)
            other.event.occurredAt = S.at(15)
            try expectEqual(
                try await store.read { [other] in try other.recordedOutcome(in: $0) }, nil, "a login never written")
        },
        Check("a login write without a refresh token stores none") { store in
            _ = try await loginFixture(store)
            let outcome = try await store.write { try $0.completeLogin(completion(refresh: nil)) }
            try expectEqual(outcome, .stored, "outcome")
            let after = try await effects(store)
            try expectEqual(after.refresh, nil, "refresh token")
            try expectEqual(after.events, ["login success"], "event")
        },
        Check("a login write on a spent session writes nothing else") { store in
            _ = try await loginFixture(store)
            let before = try await effects(store)
            let spent = {
                var spent = completion()
                spent.sessionID = "spent"
                return spent
            }()
            try expectEqual(try await store.write { try $0.completeLogin(spent) }, .sessionGone, "spent before")
            try expectEqual(try await effects(store), before, "after the session spent before")
            try expectEqual(try await store.write { try $0.completeLogin(completion()) }, .stored, "first")
            let after = try await effects(store)
            try expectEqual(try await store.write { try $0.completeLogin(completion()) }, .sessionGone, "again")
            try expectEqual(try await effects(store), after, "after the second presentation")
        },
        Check("a login write whose counter moved meanwhile spends the session and writes nothing else") { store in
            _ = try await loginFixture(store)
            let before = try await effects(store)
            let outcome = try await store.write { try $0.completeLogin(completion(expecting: 4)) }
            try expectEqual(outcome, .counterRace, "outcome")
            var expected = before
            expected.spent = true
            try expectEqual(try await effects(store), expected, "after the race")
        },
        Check("a login write whose refresh token hash exists fails as a conflict and writes nothing") { store in
            _ = try await loginFixture(store)
            try await store.write { try $0.insertRefreshToken(S.refreshToken(7, family: "family-0")) }
            let before = try await effects(store)
            try await expectStorageError(.conflict, constraint: .refreshTokenHash, "duplicate hash") {
                try await store.write { try $0.completeLogin(completion()) }
            }
            try expectEqual(try await effects(store), before, "after the conflict")
        },
        Check("a driver's login write answers and leaves what its step-by-step definition does, in every case") {
            store in
            _ = try await loginFixture(store)
            try await store.write { try $0.insertRefreshToken(S.refreshToken(8, family: "family-0")) }
            let clash = {
                var clash = completion()
                clash.refreshToken = S.refreshToken(8, family: "family-0")
                return clash
            }()
            let spent = {
                var spent = completion()
                spent.sessionID = "spent"
                return spent
            }()
            let cases: [(String, LoginCompletion)] = [
                ("stored", completion()), ("without a refresh token", completion(refresh: nil)),
                ("counter race", completion(expecting: 4)), ("spent session", spent),
                ("refresh token hash taken", clash),
                ("another user: a locked key, no password verifier", completion(expecting: 0, user: 2)),
                ("a user with a phone number and a username", completion(expecting: 0, user: 3)),
                ("a user with no lock to lift", completion(expecting: 0, user: 4)),
                ("another user's counter race", completion(expecting: 3, user: 3)),
                ("a hosted login: a session and a code", hostedCompletion()),
                ("a hosted login's counter race", hostedCompletion(expecting: 4)),
            ]
            for (name, login) in cases {
                let driver = try await bothWays(store, login, stepByStep: false)
                let definition = try await bothWays(store, login, stepByStep: true)
                try expectEqual(driver, definition, "\(name): the driver's answer against the definition's")
            }
        },
        Check("a hosted login write stores its session and code with the login") { store in
            _ = try await loginFixture(store)
            try expectEqual(try await store.write { try $0.completeLogin(hostedCompletion()) }, .stored, "outcome")
            let after = try await effects(store)
            try expectEqual(after.loginSession, loginSession(0x70), "login session")
            try expectEqual(after.authorizationCode, authorizationCode(0x71), "authorization code")
            try expectEqual(after.refresh, nil, "refresh token")
        },
        Check("lifting a login's locks without the password lock leaves the password counter") { store in
            _ = try await loginFixture(store)
            let lifted = try await store.write { try $0.liftLoginLocks(userID: "user-1", includingPasswordLock: false) }
            try expectEqual(lifted, 2, "lifted")
            let left = try await effects(store).counters
            try expectEqual(left, Array(userOneCounters.dropFirst(2)) + otherCounters, "left")
        },
    ]
}
