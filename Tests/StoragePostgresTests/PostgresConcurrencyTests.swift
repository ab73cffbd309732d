import Foundation
import Storage
import StoragePostgres
import Synchronization
import Testing

/// Several stores (separate pools, as several passkeyd nodes have) on one schema.
@Suite("PostgresStore across nodes", .enabled(if: PostgresTestDatabase.isConfigured, PostgresTestDatabase.skipReason))
struct PostgresConcurrencyTests {
    /// `count` stores on the schema of `configuration` (already migrated).
    static func nodes(_ count: Int, _ configuration: PostgresConfiguration) async throws -> [PostgresStore] {
        var stores: [PostgresStore] = []
        for _ in 0..<count { stores.append(try await PostgresStore.open(configuration)) }
        return stores
    }

    @Test("16 concurrent consumers of one auth session on 4 pools: exactly one gets it")
    func authSessionRace() async throws {
        try await PostgresTestDatabase.withStore { first, configuration in
            let nodes = try await Self.nodes(4, configuration)
            for round in 0..<5 {
                try await first.write { try $0.insertAuthSession(AuthSession.sample("race-\(round)")) }
                let winners = try await withThrowingTaskGroup(of: Bool.self) { group in
                    for n in 0..<16 {
                        group.addTask {
                            try await nodes[n % nodes.count].write {
                                try $0.consumeAuthSession(id: "race-\(round)", now: Date()) != nil
                            }
                        }
                    }
                    return try await group.reduce(into: 0) { $0 += $1 ? 1 : 0 }
                }
                #expect(winners == 1, "round \(round)")
            }
            for node in nodes { await node.close() }
        }
    }

    @Test("16 concurrent sign-ups with one email on 4 pools: one user is stored, every other gets conflict(userEmail)")
    func signUpRace() async throws {
        try await PostgresTestDatabase.withStore { first, configuration in
            let nodes = try await Self.nodes(4, configuration)
            @Sendable func signUp(_ n: Int) -> (User, Credential) {
                let user = User(
                    id: "race-user-\(n)", userHandle: [0x55, UInt8(n)], realm: "main", email: "same@example.com",
                    phoneNumber: nil, username: nil, name: nil, createdAt: Date())
                let credential = Credential(
                    credentialID: [0xC7, UInt8(n)], userID: user.id, publicKey: [0xA5], algorithm: -7, signCount: 0,
                    uvInitialized: true, backupEligible: false, backedUp: false, transports: [], aaguid: [],
                    attestationFormat: "none", createdAt: Date())
                return (user, credential)
            }
            let outcomes = try await withThrowingTaskGroup(of: StorageError.Constraint?.self) { group in
                for n in 0..<16 {
                    group.addTask {
                        let (user, credential) = signUp(n)
                        do {
                            try await nodes[n % nodes.count].write { try $0.insertUser(user, credential: credential) }
                            return nil
                        } catch let error as StorageError where error.code == .conflict {
                            return error.constraint
                        }
                    }
                }
                return try await group.reduce(into: [StorageError.Constraint?]()) { $0.append($1) }
            }
            #expect(outcomes.filter { $0 == nil }.count == 1, "\(outcomes)")
            #expect(outcomes.compactMap { $0 }.allSatisfy { $0 == .userEmail }, "\(outcomes)")
            let stored = try await first.read {
                try $0.user(realm: "main", identifier: .email("same@example.com"))
            }
            #expect(stored != nil)
            for node in nodes { await node.close() }
        }
    }

    @Test("16 concurrent rotations of one refresh token on 4 pools: exactly one succeeds, one successor stored")
    func refreshRotationRace() async throws {
        try await PostgresTestDatabase.withStore { first, configuration in
            let nodes = try await Self.nodes(4, configuration)
            let now = Date()
            @Sendable func token(_ fill: UInt8) -> RefreshToken {
                RefreshToken(
                    tokenHash: [UInt8](repeating: fill, count: 32), familyID: "family", clientID: "client-1",
                    userID: "user-1", scope: "openid", authTime: now, createdAt: now,
                    absoluteExpiresAt: now.addingTimeInterval(86_400), idleExpiresAt: now.addingTimeInterval(3_600))
            }
            try await first.write { try $0.insertRefreshToken(token(0)) }
            let winners = try await withThrowingTaskGroup(of: Bool.self) { group in
                for n in 0..<16 {
                    group.addTask {
                        try await nodes[n % nodes.count].write {
                            try $0.markRefreshTokenRotated(
                                presentedHash: token(0).tokenHash, now: Date(), replacement: token(UInt8(n + 1)))
                        }
                    }
                }
                return try await group.reduce(into: 0) { $0 += $1 ? 1 : 0 }
            }
            #expect(winners == 1)
            let family = try await first.read { try $0.refreshTokens(familyID: "family") }
            #expect(family.count == 2)
            for node in nodes { await node.close() }
        }
    }

    @Test("16 concurrent consumers of one device challenge on 4 pools: exactly one consumes it")
    func deviceChallengeRace() async throws {
        try await PostgresTestDatabase.withStore { first, configuration in
            let nodes = try await Self.nodes(4, configuration)
            let challenge = DeviceChallenge(
                challengeID: "c1", keyID: "k1", userID: "u1", document: [1], actionHash: [2], action: [3],
                createdAt: Date(), expiresAt: Date().addingTimeInterval(120))
            try await first.write { try $0.insertDeviceChallenge(challenge) }
            let winners = try await withThrowingTaskGroup(of: Bool.self) { group in
                for n in 0..<16 {
                    group.addTask {
                        let outcome = try await nodes[n % nodes.count].write {
                            try $0.consumeDeviceChallenge(id: "c1", keyID: "k1", userID: "u1", now: Date())
                        }
                        if case .consumed = outcome { return true }
                        return false
                    }
                }
                return try await group.reduce(into: 0) { $0 += $1 ? 1 : 0 }
            }
            #expect(winners == 1)
            for node in nodes { await node.close() }
        }
    }

    @Test("16 concurrent enrolments with one recovery token on 4 pools: exactly one spends it, one passkey added")
    func singleUseTokenRace() async throws {
        try await PostgresTestDatabase.withStore { first, configuration in
            let nodes = try await Self.nodes(4, configuration)
            @Sendable func credential(_ n: Int) -> Credential {
                Credential(
                    credentialID: [0xC8, UInt8(n)], userID: "spender", publicKey: [0xA5], algorithm: -7, signCount: 0,
                    uvInitialized: true, backupEligible: false, backedUp: false, transports: [], aaguid: [],
                    attestationFormat: "none", createdAt: Date())
            }
            let user = User(
                id: "spender", userHandle: [0x56], realm: "main", email: "spender@example.com", phoneNumber: nil,
                username: nil, name: nil, createdAt: Date())
            try await first.write { try $0.insertUser(user, credential: credential(0)) }
            for round in 0..<5 {
                let winners = try await withThrowingTaskGroup(of: Bool.self) { group in
                    for n in 0..<16 {
                        group.addTask {
                            try await nodes[n % nodes.count].write { writer -> Bool in
                                // What `POST /me/passkeys` does with a recovery token: spend it and insert the
                                // credential in one write.
                                guard
                                    try writer.spendToken(
                                        jwtID: "recovery-\(round)", expiresAt: Date().addingTimeInterval(600))
                                else { return false }
                                try writer.insertCredential(credential(1 + round * 16 + n))
                                return true
                            }
                        }
                    }
                    return try await group.reduce(into: 0) { $0 += $1 ? 1 : 0 }
                }
                #expect(winners == 1, "round \(round)")
            }
            #expect(try await first.read { try $0.credentials(userID: "spender") }.count == 1 + 5)
            for node in nodes { await node.close() }
        }
    }

    @Test("nodes starting together on an empty database create one first signing key (read-then-insert in a write)")
    func firstSigningKeyOnce() async throws {
        try await PostgresTestDatabase.withStore { first, configuration in
            let nodes = try await Self.nodes(4, configuration)
            try await withThrowingTaskGroup(of: Void.self) { group in
                for n in 0..<8 {
                    group.addTask {
                        // What TokenService does at start: create the first key only if there is none.
                        _ = try await nodes[n % nodes.count].write { writer -> Int in
                            if try writer.signingKeys().isEmpty {
                                usleep(20_000)
                                try writer.insertSigningKey(
                                    SigningKey(
                                        kid: "key-\(n)", algorithm: "ES256", privateKey: [1], publicKey: [2],
                                        createdAt: Date()))
                            }
                            return 0
                        }
                    }
                }
                try await group.waitForAll()
            }
            #expect(try await first.read { try $0.signingKeys() }.count == 1)
            for node in nodes { await node.close() }
        }
    }

    @Test("16 concurrent replacements of one signing key's private bytes on 4 pools: exactly one replaces them")
    func signingKeyReplacedOnce() async throws {
        try await PostgresTestDatabase.withStore { first, configuration in
            let stored = SigningKey(
                kid: "key-1", algorithm: "ES256", privateKey: [0x30, 1, 2, 3], publicKey: [2], createdAt: Date())
            try await first.write { try $0.insertSigningKey(stored) }
            let nodes = try await Self.nodes(4, configuration)
            // What nodes starting together with a key-encryption key do: seal the key if it is still unencrypted.
            let winners = try await withThrowingTaskGroup(of: UInt8?.self) { group in
                for n in 0..<16 {
                    group.addTask {
                        let replaced = try await nodes[n % nodes.count].write { writer in
                            try writer.replaceSigningKeyPrivateKey(
                                kid: "key-1", expected: stored.privateKey, replacement: [0x70, UInt8(n)])
                        }
                        return replaced ? UInt8(n) : nil
                    }
                }
                var winners: [UInt8] = []
                for try await winner in group { if let winner { winners.append(winner) } }
                return winners
            }
            #expect(winners.count == 1, "\(winners)")
            let now = try await first.read { try $0.signingKeys() }.first?.privateKey
            #expect(now == [0x70] + winners, "the winner's bytes are stored")
            for node in nodes { await node.close() }
        }
    }

    @Test("security events appended concurrently on 4 pools get distinct seqs and each enters the audit queue once")
    func eventSequenceAcrossNodes() async throws {
        try await PostgresTestDatabase.withStore { first, configuration in
            let nodes = try await Self.nodes(4, configuration)
            try await withThrowingTaskGroup(of: Void.self) { group in
                for n in 0..<64 {
                    group.addTask {
                        _ = try await nodes[n % nodes.count].write {
                            try $0.appendSecurityEvent(
                                SecurityEvent(occurredAt: Date(), storedKind: "e\(n)", outcome: "ok"))
                        }
                    }
                }
                try await group.waitForAll()
            }
            let events = try await first.read { try $0.securityEvents(after: 0, limit: 1_000) }
            #expect(Set(events.map(\.seq)).count == 64)
            // The gap-free, commit-ordered sequence is the audit log's (AuditLogMultiNodeTests).
            let queued = try await first.write { try $0.takePendingSecurityEvents(limit: 1_000) }
            #expect(queued.map(\.seq) == events.map(\.seq))
            for node in nodes { await node.close() }
        }
    }

    @Test("eight stores opening at once on a new schema migrate it once")
    func migrationUnderLock() async throws {
        let configuration = try PostgresTestDatabase.configuration(poolSize: 1)
        let stores = try await withThrowingTaskGroup(of: PostgresStore.self) { group in
            for _ in 0..<8 { group.addTask { try await PostgresStore.open(configuration) } }
            return try await group.reduce(into: [PostgresStore]()) { $0.append($1) }
        }
        #expect(stores.count == 8)
        let versions = try await stores[0].appliedSchemaVersions()
        #expect(versions == PostgresSchema.migrations.map(\.version))
        for store in stores { await store.close() }
        await PostgresTestDatabase.drop(configuration)
    }

    @Test("a database migrated by a newer passkeyd is refused with .migration")
    func refusesNewerSchema() async throws {
        let configuration = try PostgresTestDatabase.configuration(poolSize: 1)
        let future = Migration(
            version: PostgresSchema.migrations.count + 1, name: "future",
            statements: [
                "CREATE TABLE future_things (id bigint PRIMARY KEY)"
            ])
        let newer = try await PostgresStore.open(configuration, migrations: PostgresSchema.migrations + [future])
        await newer.close()
        await #expect(throws: StorageError(.migration, "")) { try await PostgresStore.open(configuration) }
        await PostgresTestDatabase.drop(configuration)
    }
}

@Suite("PostgresStore housekeeping", .enabled(if: PostgresTestDatabase.isConfigured, PostgresTestDatabase.skipReason))
struct PostgresHousekeepingTests {
    @Test(
        "while one node purges (advisory lock held), another node's purges, of expired rows and of old events, delete nothing and do not wait"
    )
    func purgeRunsOnOneNodeAtATime() async throws {
        try await PostgresTestDatabase.withStore { first, configuration in
            let second = try await PostgresStore.open(configuration)
            let past = Date().addingTimeInterval(-10)
            try await first.write { writer in
                for n in 0..<10 { try writer.insertAuthSession(AuthSession.sample("old-\(n)", expiresAt: past)) }
                // An event past any retention, already in the audit log (taken from its queue).
                _ = try writer.appendSecurityEvent(
                    SecurityEvent(occurredAt: past, storedKind: "old", outcome: "success"))
                _ = try writer.takePendingSecurityEvents(limit: 10)
            }
            let holding = AsyncStream<Void>.makeStream()
            let progress = PurgeProgress()
            async let firstPurge = first.write { writer -> Int in
                let result = try writer.purgeExpired(now: Date(), limit: 100)
                holding.continuation.yield()
                // Keep the transaction, and the lock, open until the second purge has returned (or 30 s passed: a
                // second purge that waits for the lock returns only after this one lets go).
                let until = Date().addingTimeInterval(30)
                while !progress.secondReturned.load(ordering: .relaxed), Date() < until { usleep(10_000) }
                progress.firstReleased.store(true, ordering: .relaxed)
                return result.authSessions
            }
            var iterator = holding.stream.makeAsyncIterator()
            await iterator.next()
            let (secondResult, secondEvents) = try await second.write { writer in
                (
                    try writer.purgeExpired(now: Date(), limit: 100),
                    try writer.purgeSecurityEvents(before: Date(), limit: 100)
                )
            }
            let waited = progress.firstReleased.load(ordering: .relaxed)
            progress.secondReturned.store(true, ordering: .relaxed)
            #expect(secondResult == PurgeResult())
            #expect(secondEvents == 0)
            #expect(!waited, "the second purge waited for the lock")
            #expect(try await firstPurge == 10)
            // With the lock free again, the event goes.
            #expect(try await second.write { try $0.purgeSecurityEvents(before: Date(), limit: 100) } == 1)
            await second.close()
        }
    }
}

/// Where the two purges of `purgeRunsOnOneNodeAtATime` are.
private final class PurgeProgress: Sendable {
    let secondReturned = Atomic<Bool>(false)
    let firstReleased = Atomic<Bool>(false)
}
