import Foundation
import Storage
import Synchronization
import Testing

@testable import StoragePostgres

/// A write whose connection breaks while the server runs its COMMIT. A deferred constraint trigger (run at COMMIT)
/// makes the COMMIT of the auth session "slow" wait for an advisory lock the test holds on a connection of its own,
/// so the connection can be broken during that COMMIT, and the COMMIT ends only when the test lets it: no timing
/// margin that a loaded machine could eat.
@Suite("A write whose COMMIT loses its connection: the outcome asked of the database, the pool slot free meanwhile")
struct CommitInDoubtTests {
    /// The lock a held COMMIT waits for, taken by the test on a connection of its own.
    struct CommitHold {
        /// Advisory locks are database-wide and tests in other schemas run alongside: a key of its own.
        let key = Int64.random(in: 1...Int64(Int32.max))
        let connection: PostgresConnection

        /// Takes the lock on a connection named apart from `configuration`'s sessions (which a test may end).
        init(_ configuration: PostgresConfiguration) throws {
            var own = configuration
            own.applicationName = "passkeyd-tests-commit-hold"
            connection = PostgresConnection(configuration: own, counters: PostgresCounters())
            try connection.connectIfNeeded()
            _ = try connection.simpleValue("SELECT pg_advisory_lock(\(key))")
        }

        /// Makes the COMMIT of a transaction that inserted the auth session "slow" wait for this hold.
        func holdCommits(of store: PostgresStore) async throws {
            try await store.executeForTesting(
                """
                CREATE FUNCTION hold_at_commit() RETURNS trigger LANGUAGE plpgsql AS $$
                BEGIN IF NEW.id = 'slow' THEN PERFORM pg_advisory_xact_lock(\(key)); END IF; RETURN NULL; END $$
                """)
            try await store.executeForTesting(
                """
                CREATE CONSTRAINT TRIGGER hold_at_commit AFTER INSERT ON auth_sessions DEFERRABLE INITIALLY DEFERRED
                FOR EACH ROW EXECUTE FUNCTION hold_at_commit()
                """)
        }

        /// Whether a session waits for the hold: the COMMIT of "slow" is under way.
        func isWaitedFor() throws -> Bool {
            try connection.simpleValue(
                "SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND NOT granted AND classid = 0 AND objid = \(key)"
            ) != "0"
        }

        /// Lets the held COMMIT go on; the hold's session ends.
        func release() { connection.disconnect() }
    }

    /// Starts the write of "slow"; returns it (its result: when it ended) once its COMMIT waits for `hold`, with the
    /// socket of the connection it runs on.
    static func slowWrite(_ store: PostgresStore, held hold: CommitHold) async throws
        -> (Task<ContinuousClock.Instant, any Error>, Int32)
    {
        let socket = Mutex<Int32?>(nil)
        let write = Task { () async throws -> ContinuousClock.Instant in
            try await store.write { writer in
                try writer.insertAuthSession(AuthSession.sample("slow"))
                socket.withLock { $0 = (writer as? PostgresTransaction)?.connection.socketDescriptor }
            }
            return ContinuousClock.now
        }
        var waiting = false
        for _ in 0..<3_000 where !waiting {
            try await Task.sleep(for: .milliseconds(10))
            waiting = try hold.isWaitedFor()
        }
        #expect(waiting, "the COMMIT of \"slow\" did not reach the hold within 30 s")
        let socketDescriptor = try #require(socket.withLock { $0 })
        return (write, socketDescriptor)
    }

    @Test(
        "the connection breaks on the client's side, the server commits: the write succeeds, and the pool's only slot served another write while the outcome was unknown",
        .enabled(if: PostgresTestDatabase.isConfigured, PostgresTestDatabase.skipReason))
    func committed() async throws {
        try await PostgresTestDatabase.withStore(poolSize: 1) { store, configuration in
            let hold = try CommitHold(configuration)
            defer { hold.release() }
            try await hold.holdCommits(of: store)
            let (slow, socket) = try await Self.slowWrite(store, held: hold)
            // As a network failure would: libpq sees the connection end, the server's backend goes on with COMMIT.
            #expect(shutdown(socket, Int32(SHUT_RDWR)) == 0)
            // The slot was not held while the database was asked: this write runs while "slow"'s COMMIT still waits
            // (asked on the slot, the question would hold it until it gave up, and "slow" would fail as unknown).
            try await store.write { try $0.insertAuthSession(AuthSession.sample("quick")) }
            let quickEnded = ContinuousClock.now
            #expect(try hold.isWaitedFor(), "the COMMIT of \"slow\" ended before the other write")
            hold.release()
            let slowEnded = try await slow.value
            #expect(quickEnded < slowEnded)
            let kept = try await store.read { (try $0.authSession(id: "slow"), try $0.authSession(id: "quick")) }
            #expect(kept.0?.id == "slow" && kept.1?.id == "quick")
            let statistics = store.statistics
            #expect(statistics.commitsFoundCommitted == 1)
            #expect(statistics.commitsFoundRolledBack + statistics.commitsUnknown == 0)
        }
    }

    @Test(
        "the server's session ends during COMMIT: rolled back, .busy (503), nothing kept",
        .enabled(if: PostgresTestDatabase.isConfigured, PostgresTestDatabase.skipReason))
    func rolledBack() async throws {
        let name = "passkeyd-commit-doubt-\(UInt32.random(in: 0...UInt32.max))"
        try await PostgresTestDatabase.withStore(poolSize: 1, applicationName: name) {
            store, configuration in
            let hold = try CommitHold(configuration)
            defer { hold.release() }
            try await hold.holdCommits(of: store)
            let (slow, _) = try await Self.slowWrite(store, held: hold)
            try await PostgresTestDatabase.terminateSessions(of: configuration)
            await #expect {
                _ = try await slow.value
            } throws: { error in
                (error as? StorageError)?.code == .busy
            }
            #expect(try await store.read { try $0.authSession(id: "slow") } == nil)
            let statistics = store.statistics
            #expect(statistics.commitsFoundRolledBack == 1)
            #expect(statistics.commitsFoundCommitted + statistics.commitsUnknown == 0)
        }
    }
}
