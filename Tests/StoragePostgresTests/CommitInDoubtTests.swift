import Foundation
import Storage
import Synchronization
import Testing

@testable import StoragePostgres

/// A write whose connection breaks while the server runs its COMMIT. A deferred constraint trigger (run at COMMIT)
/// holds the COMMIT of the auth session "slow" for a few seconds, so the connection can be broken during it.
@Suite("A write whose COMMIT loses its connection: the outcome asked of the database, the pool slot free meanwhile")
struct CommitInDoubtTests {
    static let commitPause = 3.0

    /// Makes the COMMIT of a transaction that inserted the auth session "slow" take `commitPause` seconds.
    static func slowCommits(_ store: PostgresStore) async throws {
        try await store.executeForTesting(
            """
            CREATE FUNCTION pause_at_commit() RETURNS trigger LANGUAGE plpgsql AS $$
            BEGIN IF NEW.id = 'slow' THEN PERFORM pg_sleep(\(commitPause)); END IF; RETURN NULL; END $$
            """)
        try await store.executeForTesting(
            """
            CREATE CONSTRAINT TRIGGER pause_at_commit AFTER INSERT ON auth_sessions DEFERRABLE INITIALLY DEFERRED
            FOR EACH ROW EXECUTE FUNCTION pause_at_commit()
            """)
    }

    /// Starts the write of "slow"; returns it (its result: when it ended) once its COMMIT is under way, with the
    /// socket of the connection it runs on.
    static func slowWrite(_ store: PostgresStore) async throws -> (Task<ContinuousClock.Instant, any Error>, Int32) {
        let socket = Mutex<Int32?>(nil)
        let write = Task { () async throws -> ContinuousClock.Instant in
            try await store.write { writer in
                try writer.insertAuthSession(AuthSession.sample("slow"))
                socket.withLock { $0 = (writer as? PostgresTransaction)?.connection.socketDescriptor }
            }
            return ContinuousClock.now
        }
        var descriptor: Int32?
        for _ in 0..<1_000 where descriptor == nil {
            try await Task.sleep(for: .milliseconds(5))
            descriptor = socket.withLock { $0 }
        }
        // The body has returned: COMMIT goes out at once and waits in the trigger for `commitPause` seconds.
        try await Task.sleep(for: .milliseconds(500))
        let socketDescriptor = try #require(descriptor)
        return (write, socketDescriptor)
    }

    @Test(
        "the connection breaks on the client's side, the server commits: the write succeeds, and the pool's only slot served another write while the outcome was unknown",
        .enabled(if: PostgresTestDatabase.isConfigured, PostgresTestDatabase.skipReason))
    func committed() async throws {
        try await PostgresTestDatabase.withStore(poolSize: 1) { store, _ in
            try await Self.slowCommits(store)
            let (slow, socket) = try await Self.slowWrite(store)
            // As a network failure would: libpq sees the connection end, the server's backend goes on with COMMIT.
            #expect(shutdown(socket, Int32(SHUT_RDWR)) == 0)
            try await store.write { try $0.insertAuthSession(AuthSession.sample("quick")) }
            let quickEnded = ContinuousClock.now
            let slowEnded = try await slow.value
            // The slot was not held while the database was asked: the second write did not wait for the first.
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
        var configuration = try PostgresTestDatabase.configuration(poolSize: 1)
        configuration.applicationName = "passkeyd-commit-doubt-\(UInt32.random(in: 0...UInt32.max))"
        let store = try await PostgresStore.open(configuration)
        try await Self.slowCommits(store)
        let (slow, _) = try await Self.slowWrite(store)
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
        await store.close()
        await PostgresTestDatabase.drop(configuration)
    }
}
