import Foundation
import Storage
import StoragePostgres
import Synchronization
import TestSupport
import Testing

@Suite("PostgresStore", .enabled(if: PostgresTestDatabase.isConfigured, PostgresTestDatabase.skipReason))
struct PostgresStoreTests {
    @Test("passes the store behaviour suite", arguments: StoreConformance.checks)
    func conforms(_ check: StoreConformance.Check) async throws {
        let configuration = try PostgresTestDatabase.configuration()
        let store = try await PostgresStore.open(configuration)
        do {
            try await check.run(on: store)
        } catch {
            await store.close()
            await PostgresTestDatabase.drop(configuration)
            throw error
        }
        await store.close()
        await PostgresTestDatabase.drop(configuration)
    }

    @Test("data written before close is there after reopening, on the same schema")
    func reopen() async throws {
        try await PostgresTestDatabase.withStore { first, configuration in
            let user = User(id: "u1", userHandle: [1, 2, 3], realm: "main", email: "a@example.com", createdAt: Date())
            let credential = Credential(
                credentialID: [9], userID: "u1", publicKey: [1], algorithm: -8, signCount: 0, uvInitialized: false,
                backupEligible: false, backedUp: false, transports: [], aaguid: [], attestationFormat: "none",
                createdAt: Date())
            try await first.write { try $0.insertUser(user, credential: credential) }
            let second = try await PostgresStore.open(configuration)
            let found = try await second.read { (try $0.user(id: "u1"), try $0.credential(id: [9])) }
            await second.close()
            #expect(found.0 == user)
            #expect(found.1 == credential)
        }
    }

    @Test("a body that catches a conflict goes on, and the transaction commits what else it wrote")
    func conflictDoesNotAbortTheTransaction() async throws {
        try await PostgresTestDatabase.withStore { store, _ in
            try await store.write { try $0.insertAuthSession(AuthSession.sample("s1")) }
            let caught = try await store.write { writer -> Bool in
                var caught = false
                do { try writer.insertAuthSession(AuthSession.sample("s1")) } catch let error as StorageError {
                    caught = error.code == .conflict
                }
                try writer.insertAuthSession(AuthSession.sample("s2"))
                return caught
            }
            #expect(caught)
            #expect(try await store.read { try $0.authSession(id: "s2") } != nil)
        }
    }

    @Test("a pooled connection that the server dropped is replaced: the next transaction succeeds")
    func reconnectsAfterConnectionLoss() async throws {
        var configuration = try PostgresTestDatabase.configuration(poolSize: 2)
        configuration.applicationName = "passkeyd-reconnect-\(UInt32.random(in: 0...UInt32.max))"
        let store = try await PostgresStore.open(configuration)
        try await store.write { try $0.insertAuthSession(AuthSession.sample("before")) }
        let opened = store.statistics.connectionsOpened
        try await PostgresTestDatabase.terminateSessions(of: configuration)
        for n in 0..<4 {
            try await store.write { try $0.insertAuthSession(AuthSession.sample("after-\(n)")) }
        }
        #expect(try await store.read { try $0.authSession(id: "after-3") } != nil)
        // Counted for /metrics: the dead connection found at BEGIN, and the connection opened in its place.
        #expect(store.statistics.retriesConnectionLost >= 1)
        #expect(store.statistics.connectionsOpened > opened)
        await store.close()
        await PostgresTestDatabase.drop(configuration)
    }

    @Test("a write queued for the pool's only connection is admitted when it gets it, not when it is called")
    func admissionAfterTheQueue() async throws {
        let configuration = try PostgresTestDatabase.configuration(poolSize: 1)
        let store = try await PostgresStore.open(configuration)
        try await QueuedAdmission.check(store)
        await store.close()
        await PostgresTestDatabase.drop(configuration)
    }

    @Test("a read on a pooled connection the server dropped succeeds: the one-statement attempt falls back")
    func readAfterConnectionLoss() async throws {
        var configuration = try PostgresTestDatabase.configuration(poolSize: 1)
        configuration.applicationName = "passkeyd-read-reconnect-\(UInt32.random(in: 0...UInt32.max))"
        let store = try await PostgresStore.open(configuration)
        try await store.write { try $0.insertAuthSession(AuthSession.sample("kept")) }
        try await PostgresTestDatabase.terminateSessions(of: configuration)
        // The first statement meets the dead connection; the read is run again on a new one, not failed as .busy.
        #expect(try await store.read { try $0.authSession(id: "kept") }?.id == "kept")
        await store.close()
        await PostgresTestDatabase.drop(configuration)
    }

    @Test("a read whose COMMIT loses its connection is .busy (503), not a 500 nor a commit in doubt: it wrote nothing")
    func readCommitLost() async throws {
        var configuration = try PostgresTestDatabase.configuration(poolSize: 1)
        configuration.applicationName = "passkeyd-read-commit-\(UInt32.random(in: 0...UInt32.max))"
        let store = try await PostgresStore.open(configuration)
        // Two statements: the read runs in a REPEATABLE READ transaction, its sessions end before its COMMIT.
        let error = try await PostgresTestDatabase.endingSessions(of: configuration) { pause in
            _ = try await store.read { reader in
                _ = try reader.authSession(id: "a")
                _ = try reader.authSession(id: "b")
                pause()
            }
        }
        #expect(error?.code == .busy, "\(String(describing: error))")
        let statistics = store.statistics
        #expect(statistics.commitsUnknown + statistics.commitsFoundCommitted + statistics.commitsFoundRolledBack == 0)
        await store.close()
        await PostgresTestDatabase.drop(configuration)
    }

    @Test("a connection the server drops in the middle of a transaction: .busy, nothing kept, the next write works")
    func connectionLostMidTransaction() async throws {
        var configuration = try PostgresTestDatabase.configuration(poolSize: 1)
        configuration.applicationName = "passkeyd-midway-\(UInt32.random(in: 0...UInt32.max))"
        let store = try await PostgresStore.open(configuration)
        let error = try await PostgresTestDatabase.endingSessions(of: configuration) { pause in
            try await store.write { writer in
                try writer.insertAuthSession(AuthSession.sample("first"))
                pause()
                try writer.insertAuthSession(AuthSession.sample("second"))
            }
        }
        #expect(error?.code == .busy, "\(String(describing: error))")
        let left = try await store.read { (try $0.authSession(id: "first"), try $0.authSession(id: "second")) }
        #expect(left.0 == nil && left.1 == nil)
        try await store.write { try $0.insertAuthSession(AuthSession.sample("third")) }
        await store.close()
        await PostgresTestDatabase.drop(configuration)
    }

    @Test("a statement prepared before another node changed a result type is prepared again: the read succeeds")
    func stalePreparedStatementIsPreparedAgain() async throws {
        try await PostgresTestDatabase.withStore(poolSize: 1) { store, configuration in
            try await store.write { try $0.insertAuthSession(AuthSession.sample("s1")) }
            // Prepares the SELECT on the pool's only connection.
            #expect(try await store.read { try $0.authSession(id: "s1") }?.realm == "main")
            var admin = configuration
            admin.poolSize = 1
            let migrator = try await PostgresStore.open(admin)
            // What a newer passkeyd's migration might do: change a column the SELECT returns (here its collation).
            try await migrator.executeForTesting("ALTER TABLE auth_sessions ALTER COLUMN realm TYPE text COLLATE \"C\"")
            await migrator.close()
            // PostgreSQL refuses the old prepared statement (0A000 "cached plan must not change result type").
            #expect(try await store.read { try $0.authSession(id: "s1") }?.realm == "main")
            #expect(store.statistics.retriesStaleStatement >= 1, "counted for /metrics")
            try await store.write { try $0.insertAuthSession(AuthSession.sample("s2")) }
            #expect(try await store.read { try $0.authSession(id: "s2") } != nil)
        }
    }

    @Test("a server that cannot be reached is .busy (the server's 503), not a crash or a hang")
    func unreachableIsBusy() async throws {
        var configuration = try PostgresTestDatabase.configuration()
        configuration.servers = [.init(host: "127.0.0.1", port: 1)]  // nothing listens there
        configuration.connectTimeoutSeconds = 2
        await #expect(throws: StorageError(.busy, "")) { try await PostgresStore.open(configuration) }
    }

    @Test("the pool's statistics: size, leased and waiting connections, and the waits counted with their time")
    func poolStatistics() async throws {
        let configuration = try PostgresTestDatabase.configuration(poolSize: 1)
        let store = try await PostgresStore.open(configuration)
        let idle = store.statistics
        #expect(idle.poolSize == 1 && idle.inUse == 0 && idle.waiting == 0)
        #expect(idle.connectionsOpened == 1 && idle.connectFailures == 0)
        let inside = Counter()
        // The first write holds the only connection until the second has queued behind it.
        async let holder: PostgresStatistics = store.write { _ in
            inside.increment()
            // Generous: the second write is started from the cooperative pool, which other suites may keep busy.
            let deadline = Date().addingTimeInterval(120)
            while store.statistics.waiting == 0, Date() < deadline { usleep(1_000) }
            usleep(50_000)
            return store.statistics
        }
        while inside.value == 0 { try await Task.sleep(for: .milliseconds(1)) }
        try await store.write { try $0.insertAuthSession(AuthSession.sample("queued")) }
        let during = try await holder
        #expect(during.inUse == 1 && during.waiting == 1)
        let after = store.statistics
        #expect(after.inUse == 0 && after.waiting == 0)
        #expect(after.waits == idle.waits + 1)
        #expect(after.waitSeconds >= 0.04, "the wait lasted the holder's 50 ms at least")
        await store.close()
        await PostgresTestDatabase.drop(configuration)
    }

    @Test("a write whose task is cancelled while it waits for a connection leaves the queue at once; nothing runs")
    func cancelledWaiterLeavesTheQueue() async throws {
        let configuration = try PostgresTestDatabase.configuration(poolSize: 1)
        let store = try await PostgresStore.open(configuration)
        let inside = Counter()
        let release = Counter()
        // The holder keeps the only connection until the test lets it go.
        let holder = Task {
            try await store.write { _ in
                inside.increment()
                let deadline = Date().addingTimeInterval(120)
                while release.value == 0, Date() < deadline { usleep(1_000) }
            }
        }
        while inside.value == 0 { try await Task.sleep(for: .milliseconds(1)) }
        let ran = Counter()
        let queued = Task {
            try await store.write { writer in
                ran.increment()
                try writer.insertAuthSession(AuthSession.sample("cancelled"))
            }
        }
        while store.statistics.waiting == 0 { try await Task.sleep(for: .milliseconds(1)) }
        queued.cancel()
        // It is out of the queue while the holder still has the connection.
        await #expect(throws: CancellationError.self) { try await queued.value }
        #expect(store.statistics.waiting == 0)
        release.increment()
        try await holder.value
        #expect(ran.value == 0)
        #expect(try await store.read { try $0.authSession(id: "cancelled") } == nil)
        try await store.write { try $0.insertAuthSession(AuthSession.sample("after")) }
        await store.close()
        await PostgresTestDatabase.drop(configuration)
    }

    @Test("a pooled connection whose server stopped accepting writes is dropped: 503, then the next write reconnects")
    func readOnlyServerIsLeft() async throws {
        try await PostgresTestDatabase.withStore(poolSize: 1) { store, _ in
            try await store.write { try $0.insertAuthSession(AuthSession.sample("before")) }
            // The pool's only session turns read-only, as a connection to a primary set read-only (or a standby).
            try await store.executeForTesting("SET default_transaction_read_only = on")
            let opened = store.statistics.connectionsOpened
            // 503, as `.unavailable` (read-only): nothing was written.
            await #expect(throws: StorageError(.unavailable, "")) {
                try await store.write { try $0.insertAuthSession(AuthSession.sample("refused")) }
            }
            // Dropped: the next write runs on a new session, which accepts writes.
            try await store.write { try $0.insertAuthSession(AuthSession.sample("after")) }
            #expect(store.statistics.connectionsOpened == opened + 1)
            #expect(try await store.read { try $0.authSession(id: "after") } != nil)
            #expect(try await store.read { try $0.authSession(id: "refused") } == nil)
        }
    }

    @Test("a deadlock is retried: both transactions commit")
    func deadlockIsRetried() async throws {
        try await PostgresTestDatabase.withStore { store, _ in
            let user = User(id: "u1", userHandle: [1], realm: "main", createdAt: Date())
            @Sendable func credential(_ id: UInt8) -> Credential {
                Credential(
                    credentialID: [id], userID: "u1", publicKey: [1], algorithm: -7, signCount: 0,
                    uvInitialized: false, backupEligible: false, backedUp: false, transports: [], aaguid: [],
                    attestationFormat: "none", createdAt: Date())
            }
            try await store.write { writer in
                try writer.insertUser(user, credential: credential(1))
                try writer.insertCredential(credential(2))
            }
            let runs = Counter()
            let holding = Counter()
            // Each takes the two rows in the opposite order, and takes its second only once both hold their first
            // (a barrier, passed at once by a rerun): PostgreSQL detects the deadlock (deadlock_timeout, 1 s by
            // default) and aborts one with 40P01; the store runs it again.
            func touch(_ first: UInt8, _ second: UInt8) async throws {
                try await store.write { writer in
                    runs.increment()
                    for (index, id) in [first, second].enumerated() {
                        _ = try writer.recordCredentialUse(
                            CredentialUse(
                                credentialID: [id], expectedSignCount: 0, newSignCount: 0, backedUp: false,
                                usedAt: Date()))
                        if index == 0 {
                            holding.increment()
                            let deadline = Date().addingTimeInterval(10)
                            while holding.value < 2, Date() < deadline { usleep(1_000) }
                        }
                    }
                }
            }
            async let a: Void = touch(1, 2)
            async let b: Void = touch(2, 1)
            _ = try await (a, b)
            #expect(runs.value >= 3, "one of them ran again after PostgreSQL aborted it (40P01)")
            #expect(store.statistics.retriesSerialization == runs.value - 2, "each rerun counted for /metrics")
        }
    }
}

/// A thread-safe run counter.
final class Counter: Sendable {
    private let count = Mutex(0)
    func increment() { count.withLock { $0 += 1 } }
    var value: Int { count.withLock { $0 } }
}

extension AuthSession {
    static func sample(_ id: String, expiresAt: Date = Date().addingTimeInterval(300)) -> AuthSession {
        AuthSession(
            id: id, clientID: "client-1", realm: "main", kind: .login, challenge: [1, 2, 3], createdAt: Date(),
            expiresAt: expiresAt)
    }
}
