import Foundation
import Storage
import StoragePostgres
import StorageSQLite
import TestSupport
import Testing

@testable import Commands
@testable import Service

/// `passkeyd database copy` and nodes starting on its target: the copy holds the migration's advisory lock for its
/// whole length, checks the target before it creates anything, and leaves nothing behind when it is refused.
@Suite(
    "database copy: the target's lock and a refused copy", .serialized,
    .enabled(
        if: Cluster.databaseURL != nil,
        "PASSKEYD_TEST_DATABASE_URL is not set: copying into PostgreSQL needs a server (`make test` starts one)"))
struct DatabaseCopyLockTests {
    typealias Move = DatabaseCopyTests.Move

    /// A source that stops once every row is in the target (before its marks are read, so before COMMIT) until
    /// the test lets it go on; the copy's transaction is open meanwhile.
    final class PausingSource: StoreImageSource {
        /// Signalled when the copy reached the pause, and by the test to let it go on.
        final class Gate: Sendable {
            let (reached, arrival) = AsyncStream<Void>.makeStream()
            let proceed = DispatchSemaphore(value: 0)
        }

        let inner: SQLiteImageReader
        let gate: Gate

        init(_ inner: SQLiteImageReader, gate: Gate) {
            self.inner = inner
            self.gate = gate
        }

        var schemaVersion: Int { inner.schemaVersion }
        func tables() throws(StorageError) -> [TableShape] { try inner.tables() }
        func rows(of table: TableShape, batchSize: Int, _ body: ([[StoredValue]]) throws(StorageError) -> Void)
            throws(StorageError)
        { try inner.rows(of: table, batchSize: batchSize, body) }
        func marks() throws(StorageError) -> StoreImageMarks {
            gate.arrival.yield()
            gate.proceed.wait()  // on the copy's connection thread, never the cooperative pool
            return try inner.marks()
        }
    }

    /// Waits until `count` sessions wait for the migration lock of `database`'s schema; false after a minute.
    static func lockWaiters(_ count: Int, on database: PostgresConfiguration) async throws -> Bool {
        let deadline = ContinuousClock.now + .seconds(60)
        while ContinuousClock.now < deadline {
            if try await PostgresStore.migrationLockWaitersForTesting(database) >= count { return true }
            try await Task.sleep(for: .milliseconds(10))
        }
        return false
    }

    /// The source's database at this binary's schema, with nothing in it.
    static func emptySource(_ move: Move) async throws {
        await (try await DatabaseDrivers.openStore(move.configuration)).close()
    }

    @Test("a target holding another application's table is refused before anything is created in it")
    func anotherApplicationsTable() async throws {
        let move = try Move()
        try await Self.emptySource(move)
        let database = try move.database()
        let schema = try #require(database.schema)
        try await PostgresStore.executeUnmigratedForTesting(
            "CREATE SCHEMA \(schema); CREATE TABLE \(schema).orders (id integer)", on: database)
        let refusal = await DatabaseCopyTests.refusal(move.configuration, to: move.target)
        #expect(refusal.contains("not passkeyd's ([orders])"), "\(refusal)")
        #expect(try await PostgresStore.tablesForTesting(database) == ["orders"], "no passkeyd table was created")
        await move.end()
    }

    @Test("a copy refused after the target's migration (a passkeyd schema with another table) leaves it as it was")
    func refusedAfterMigrating() async throws {
        let move = try Move()
        try await Self.emptySource(move)
        let database = try move.database()
        let schema = try #require(database.schema)
        // A schema of passkeyd's at version 0 (only its bookkeeping) with another application's table beside it.
        try await PostgresStore.executeUnmigratedForTesting(
            """
            CREATE SCHEMA \(schema);
            CREATE TABLE \(schema).schema_migrations (version bigint PRIMARY KEY, name text NOT NULL,
                applied_at double precision NOT NULL);
            CREATE TABLE \(schema).orders (id integer)
            """, on: database)
        let refusal = await DatabaseCopyTests.refusal(move.configuration, to: move.target)
        #expect(refusal.contains("only in the target: [orders]"), "\(refusal)")
        #expect(try await PostgresStore.tablesForTesting(database) == ["orders", "schema_migrations"])
        await move.end()
    }

    @Test("a copy waits for a migration in progress on the target, and creates nothing before it has the lock")
    func copyWaitsForMigration() async throws {
        let move = try Move()
        try await Self.emptySource(move)
        let database = try move.database()
        let (configuration, target) = (move.configuration, move.target)
        let copy = try await PostgresStore.holdingMigrationLockForTesting(database) {
            () async throws -> Task<[String], any Error> in
            let copy = Task { try await DatabaseCopyCommand.run(configuration: configuration, to: target) }
            #expect(try await Self.lockWaiters(1, on: database), "the copy waits for the migration's lock")
            #expect(try await PostgresStore.tablesForTesting(database).isEmpty)
            return copy
        }
        let lines = try await copy.value
        #expect(lines.first?.hasPrefix("copied ") == true, "\(lines)")
        await move.end()
    }

    @Test("a node starting on the target while the copy runs waits, then serves the copied signing keys only")
    func nodeWaitsForCopy() async throws {
        let move = try Move()
        let node = try await move.startSQLiteNode()
        var authenticator = Passkey()
        _ = try await node.signUp(&authenticator, email: "moved@example.com")
        let kidsBefore = try await DatabaseCopyTests.kids(node)
        await node.stopKeepingData()
        let file = try #require(move.configuration.sqliteFile)
        let database = try move.database()

        let gate = PausingSource.Gate()
        defer { gate.proceed.signal() }  // never leave the copy's thread waiting, whatever fails below
        let copy = Task { () throws(StorageError) -> StoreImageReport in
            try await PostgresStore.importImage(into: database) { () throws(StorageError) in
                PausingSource(try SQLiteImageReader(path: file), gate: gate)
            }
        }
        for await _ in gate.reached { break }  // every row is in, uncommitted
        let starting = Task { () async throws -> Set<String> in
            let node = try await move.startPostgresNode()
            let kids = try await DatabaseCopyTests.kids(node)
            await node.stop()
            return kids
        }
        let waited = try await Self.lockWaiters(1, on: database)
        #expect(waited, "the node's migration waits for the copy's lock")
        gate.proceed.signal()
        let report = try await copy.value
        #expect(report.rows["signing_keys"] == kidsBefore.count)
        #expect(try await starting.value == kidsBefore, "the node serves the copied keys and made none of its own")
        let postgres = try await move.postgres()
        #expect(try await postgres.read { try $0.signingKeys() }.count == kidsBefore.count)
        await postgres.close()
        await move.end()
    }
}
