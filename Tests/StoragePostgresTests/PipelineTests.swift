import Foundation
import Storage
import Synchronization
import Testing

@testable import StoragePostgres

/// A transaction's BEGIN round trip goes in one pipeline with its first statement
/// (`PostgresConnection+Pipeline.swift`): a failure anywhere in that pipeline, or a connection lost under it, ends
/// the transaction as it did when BEGIN went on its own.
@Suite("The pipeline of BEGIN and a transaction's first statement")
struct PipelineTests {
    /// The commit markers in the table, as hex, in order (the test's own connection).
    static func markers(_ configuration: PostgresConfiguration) throws -> String {
        try CommitMarkerTests.value(
            configuration,
            "SELECT coalesce(string_agg(encode(marker, 'hex'), ',' ORDER BY marker), '') FROM commit_markers"
        ) ?? ""
    }

    @Test(
        "a statement failing in the pipeline rolls back everything: the marker inserted with BEGIN, the previous marker's delete, what the body wrote after catching it",
        .enabled(if: PostgresTestDatabase.isConfigured, PostgresTestDatabase.skipReason))
    func failingStatementRollsBackEverything() async throws {
        try await PostgresTestDatabase.withStore(poolSize: 1) { store, configuration in
            try await store.write { try $0.insertAuthSession(AuthSession.sample("before")) }
            let settled = try Self.markers(configuration)
            #expect(settled.count == 32)
            let error = await #expect(throws: StorageError.self) {
                try await store.write { writer in
                    let transaction = try #require(writer as? PostgresTransaction)
                    // The body's first statement: it goes with BEGIN, the previous marker's DELETE and this
                    // transaction's marker INSERT, and fails (22012).
                    do {
                        try transaction.connection.execute("SELECT 1 / 0")
                    } catch {
                        try writer.insertAuthSession(AuthSession.sample("after-the-failure"))
                    }
                }
            }
            // The first failure is the answer, not the 25P02 of the statement after it.
            #expect(error?.reason.contains("22012") == true, "\(String(describing: error))")
            #expect(try Self.markers(configuration) == settled, "the markers changed")
            #expect(try await store.read { try $0.authSession(id: "after-the-failure") } == nil)
            // The connection left the aborted transaction: the next write commits on it.
            try await store.write { try $0.insertAuthSession(AuthSession.sample("next")) }
            #expect(try await store.read { try $0.authSession(id: "next") } != nil)
            #expect(try Self.markers(configuration) != settled)
            #expect(store.statistics.connectionsOpened == 1)
        }
    }

    @Test(
        "a pooled connection the server ended before the pipeline is replaced and the write runs again on a new one, as when BEGIN went alone",
        .enabled(if: PostgresTestDatabase.isConfigured, PostgresTestDatabase.skipReason))
    func connectionEndedBeforeThePipeline() async throws {
        var configuration = try PostgresTestDatabase.configuration(poolSize: 1)
        configuration.applicationName = "passkeyd-pipeline-\(UInt32.random(in: 0...UInt32.max))"
        let store = try await PostgresStore.open(configuration)
        try await store.write { try $0.insertAuthSession(AuthSession.sample("first")) }
        let runs = Counter()
        // The sessions end while the body runs, before its first statement: the pipeline of BEGIN and that statement
        // meets a dead connection; nothing began, so the write runs again and commits.
        let error = try await PostgresTestDatabase.endingSessions(of: configuration) { pause in
            try await store.write { writer in
                runs.increment()
                if runs.value == 1 { pause() }
                try writer.insertAuthSession(AuthSession.sample("second"))
            }
        }
        #expect(error == nil, "\(String(describing: error))")
        #expect(runs.value == 2)
        #expect(store.statistics.retriesConnectionLost == 1)
        #expect(try await store.read { try $0.authSession(id: "second") } != nil)
        await store.close()
        await PostgresTestDatabase.drop(configuration)
    }

    @Test(
        "a connection ended while the pipeline's statement runs: .busy, nothing kept, as when BEGIN went alone; the next write works",
        .enabled(if: PostgresTestDatabase.isConfigured, PostgresTestDatabase.skipReason))
    func connectionEndedWhileThePipelineRuns() async throws {
        var configuration = try PostgresTestDatabase.configuration(poolSize: 1)
        configuration.applicationName = "passkeyd-pipeline-mid-\(UInt32.random(in: 0...UInt32.max))"
        let store = try await PostgresStore.open(configuration)
        try await store.write { try $0.insertAuthSession(AuthSession.sample("first")) }
        let settled = try Self.markers(configuration)
        let hold = try CommitInDoubtTests.CommitHold(configuration)
        let key = hold.key
        let runs = Counter()
        let write = Task {
            try await store.write { writer in
                runs.increment()
                // The body's first statement, in the pipeline with BEGIN: it waits for the test's lock.
                _ = try (writer as? PostgresTransaction)?.connection.execute("SELECT pg_advisory_xact_lock(\(key))")
                try writer.insertAuthSession(AuthSession.sample("second"))
            }
        }
        var waiting = false
        for _ in 0..<3_000 where !waiting {
            try await Task.sleep(for: .milliseconds(10))
            waiting = try hold.isWaitedFor()
        }
        #expect(waiting, "the pipeline's statement did not reach the lock within 30 s")
        try await PostgresTestDatabase.terminateSessions(of: configuration)
        // The server sends what it answered (BEGIN, the markers, the select) before its FATAL: the transaction began
        // and was cut before COMMIT, so nothing was written and the write is not run again (503).
        let error = await #expect(throws: StorageError.self) { try await write.value }
        #expect(error?.code == .busy, "\(String(describing: error))")
        hold.release()
        #expect(runs.value == 1)
        #expect(try Self.markers(configuration) == settled)
        #expect(try await store.read { try $0.authSession(id: "second") } == nil)
        try await store.write { try $0.insertAuthSession(AuthSession.sample("third")) }
        #expect(try await store.read { try $0.authSession(id: "third") } != nil)
        await store.close()
        await PostgresTestDatabase.drop(configuration)
    }

    @Test(
        "the request's deadline bounds the body's first statement too, which goes in the pipeline whose select sets it",
        .enabled(if: PostgresTestDatabase.isConfigured, PostgresTestDatabase.skipReason))
    func deadlineBoundsTheFirstStatement() async throws {
        try await PostgresTestDatabase.withStore(poolSize: 1) { store, _ in
            let started = ContinuousClock.now
            await #expect {
                try await store.write(admission: WriteAdmission(deadline: .now + .milliseconds(500)) {}) { writer in
                    _ = try (writer as? PostgresTransaction)?.connection.execute("SELECT pg_sleep(20)")
                }
            } throws: { StatementDeadlineTests.isStatementTimeout($0) }
            #expect(ContinuousClock.now - started < .seconds(15))
        }
    }

    @Test(
        "a write whose body runs no statement sends nothing: no BEGIN, no COMMIT, no marker",
        .enabled(if: PostgresTestDatabase.isConfigured, PostgresTestDatabase.skipReason))
    func emptyWriteSendsNothing() async throws {
        try await PostgresTestDatabase.withStore(poolSize: 1) { store, configuration in
            try await store.write { try $0.insertAuthSession(AuthSession.sample("warm")) }
            let settled = try Self.markers(configuration)
            let answer = Mutex(0)
            let trips = try await RoundTripTests.count(store) {
                let value = try await store.write { _ in 42 }
                answer.withLock { $0 = value }
            }
            #expect(answer.withLock { $0 } == 42)
            #expect(trips == 0)
            #expect(try Self.markers(configuration) == settled)
        }
    }
}
