import Foundation
import Storage
import Synchronization
import Testing

@testable import StoragePostgres

/// A COMMIT in doubt asked about after the server crashed and restarted (`pg_ctl restart -m immediate`, on a cluster
/// of the test's own): the answer is the transaction's real outcome, read from its commit marker, where
/// `txid_status` cannot tell (its id may have been handed out again).
@Suite(
    "A COMMIT in doubt across a crash and restart: its commit marker gives the real outcome",
    .enabled(if: ThrowawayCluster.isAvailable, ThrowawayCluster.skipReason), .serialized)
struct CommitOutcomeAfterRestartTests {
    /// Runs the store's BEGIN round trip (with a marker) on a connection of the test's own and inserts the auth
    /// session `id`; returns the connection (its transaction open) and the transaction as the store records it.
    static func begin(_ configuration: PostgresConfiguration, inserting id: String) throws
        -> (PostgresConnection, InFlightCommit)
    {
        let connection = PostgresConnection(configuration: configuration, counters: PostgresCounters())
        try connection.connectIfNeeded()
        let marker = CommitMarker()
        let inFlight = try #require(
            InFlightCommit(
                beginValue: try connection.simpleValue(InFlightCommit.begin(marker: marker, settled: nil)),
                marker: marker))
        try PostgresTransaction(connection: connection, isWrite: true).insertAuthSession(AuthSession.sample(id))
        return (connection, inFlight)
    }

    @Test("a write that committed, whose COMMIT answer was lost, asked about after the restart: committed, not unknown")
    func committedBeforeTheCrash() async throws {
        try await ThrowawayCluster.with { cluster in
            let configuration = try cluster.configuration()
            let store = try await PostgresStore.open(configuration)
            let (connection, inFlight) = try Self.begin(configuration, inserting: "committed")
            // The server commits (and flushes: synchronous_commit is on); the answer is taken as lost.
            #expect(try connection.command("COMMIT") == "COMMIT")
            connection.disconnect()
            try await cluster.crashAndRestart()
            let counters = PostgresCounters()
            let resolution = CommitResolution(inFlight: inFlight, cause: StorageError(.busy, "answer lost"))
            let conclusion = await resolution.conclude(
                configuration, counters: counters, gate: ConnectGate(), seconds: 10, pause: 1_000)
            #expect(conclusion.verdict == .committed)
            #expect(conclusion.attempts == 1)
            try await resolution.resolve(configuration, counters: counters, gate: ConnectGate(), seconds: 10)
            #expect(counters.resolutions(.committed) == 1 && counters.resolutions(.unknown) == 0)
            #expect(try await store.read { try $0.authSession(id: "committed") }?.id == "committed")
            await store.close()
        }
    }

    @Test("a write cut by the crash after BEGIN and its marker, before COMMIT: rolled back at the first question")
    func cutBeforeCommit() async throws {
        try await ThrowawayCluster.with { cluster in
            let configuration = try cluster.configuration()
            let store = try await PostgresStore.open(configuration)
            let (connection, inFlight) = try Self.begin(configuration, inserting: "cut")
            try await cluster.crashAndRestart()
            connection.disconnect()
            let resolution = CommitResolution(inFlight: inFlight, cause: StorageError(.busy, "connection lost"))
            let conclusion = await resolution.conclude(
                configuration, counters: PostgresCounters(), gate: ConnectGate(), seconds: 10, pause: 1_000)
            #expect(conclusion.verdict == .rolledBack)
            #expect(conclusion.attempts == 1)
            #expect(try await store.read { try $0.authSession(id: "cut") } == nil)
            await store.close()
        }
    }

    @Test("the store's write whose server crashed before its COMMIT: 503 (.busy), nothing written, counted rolled back")
    func storeWriteCutByTheCrash() async throws {
        try await ThrowawayCluster.with { cluster in
            let configuration = try cluster.configuration(poolSize: 1)
            let store = try await PostgresStore.open(configuration)
            let phase = Mutex(0)  // 1: the body ran its statement; 2: the server was restarted
            let write = Task {
                try await store.write { writer in
                    try writer.insertAuthSession(AuthSession.sample("cut"))
                    phase.withLock { $0 = 1 }
                    while phase.withLock({ $0 }) != 2 { usleep(1_000) }
                }
            }
            while phase.withLock({ $0 }) != 1 { try await Task.sleep(for: .milliseconds(2)) }
            try await cluster.crashAndRestart()
            phase.withLock { $0 = 2 }
            // Its COMMIT meets the dead connection: in doubt, asked about on a new one, where the marker is absent.
            await #expect {
                try await write.value
            } throws: { error in
                (error as? StorageError)?.code == .busy
            }
            let statistics = store.statistics
            #expect(statistics.commitsFoundRolledBack == 1)
            #expect(statistics.commitsFoundCommitted + statistics.commitsUnknown == 0)
            #expect(try await store.read { try $0.authSession(id: "cut") } == nil)
            await store.close()
        }
    }
}
