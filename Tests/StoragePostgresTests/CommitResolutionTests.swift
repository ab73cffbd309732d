import Foundation
import Storage
import Testing

@testable import StoragePostgres

/// Questions about a COMMIT in doubt that a server answers at once: they end the wait with a verdict, on the first
/// question, instead of being asked again until the deadline as if the database were down.
@Suite("Asking about a COMMIT in doubt: an answering server ends the wait at once")
struct CommitResolutionTests {
    /// The running server's start time, as `InFlightCommit.serverStart` holds it, and the newest id it handed out.
    static func server(_ configuration: PostgresConfiguration) throws -> (start: String, newestID: Int64) {
        let connection = PostgresConnection(configuration: configuration, counters: PostgresCounters())
        defer { connection.disconnect() }
        try connection.connectIfNeeded()
        let start = try #require(try connection.simpleValue("SELECT pg_postmaster_start_time()::text"))
        let id = try #require(try connection.simpleValue("SELECT txid_current()").flatMap { Int64($0) })
        return (start, id)
    }

    @Test(
        "an id the server never handed out (a promoted standby's \"in the future\") is rolled back at the first question: 503",
        .enabled(if: PostgresTestDatabase.isConfigured, PostgresTestDatabase.skipReason))
    func futureID() async throws {
        try await PostgresTestDatabase.withStore { _, configuration in
            let server = try Self.server(configuration)
            // Past anything this server handed out (in its epoch: txid_status says NULL, not "in the future", of a
            // later one), as an id of the old primary is on a promoted standby.
            let inFlight = InFlightCommit(
                transactionID: server.newestID + 1_000_000, serverStart: server.start, marker: nil)
            let resolution = CommitResolution(inFlight: inFlight, cause: StorageError(.busy, "lost"))
            let counters = PostgresCounters()
            let conclusion = await resolution.conclude(
                configuration, counters: counters, gate: ConnectGate(), seconds: 5, pause: 1_000)
            #expect(conclusion.verdict == .rolledBack)
            #expect(conclusion.attempts == 1)
            await #expect {
                try await resolution.resolve(
                    configuration, counters: counters, gate: ConnectGate(), seconds: 5, pause: 1_000)
            } throws: { error in
                (error as? StorageError)?.code == .busy
            }
            #expect(counters.resolutions(.rolledBack) == 1)
        }
    }

    @Test(
        "an ERROR in answer to the question ends the wait at the first question: outcome unknown (500), counted",
        .enabled(if: PostgresTestDatabase.isConfigured, PostgresTestDatabase.skipReason))
    func serverError() async throws {
        try await PostgresTestDatabase.withStore { store, configuration in
            // The question reads commit_markers: without the table every answer is an ERROR (42P01).
            try await store.executeForTesting("DROP TABLE commit_markers")
            let inFlight = InFlightCommit(
                transactionID: 1, serverStart: try Self.server(configuration).start, marker: CommitMarker())
            let resolution = CommitResolution(inFlight: inFlight, cause: StorageError(.busy, "lost"))
            let counters = PostgresCounters()
            let conclusion = await resolution.conclude(
                configuration, counters: counters, gate: ConnectGate(), seconds: 5, pause: 1_000)
            #expect(conclusion.verdict == .unknown)
            #expect(conclusion.attempts == 1)
            #expect(conclusion.serverError?.reason.contains("commit_markers") == true)
            await #expect {
                try await resolution.resolve(
                    configuration, counters: counters, gate: ConnectGate(), seconds: 5, pause: 1_000)
            } throws: { error in
                (error as? StorageError)?.code == .io
            }
            #expect(counters.resolutions(.unknown) == 1)
        }
    }

    @Test("a database that does not answer is asked again until the deadline: outcome unknown")
    func noAnswer() async throws {
        // Nothing listens on port 1 of the loopback interface: every attempt fails to connect.
        let configuration = try PostgresConfiguration(
            "postgres://nobody@127.0.0.1:1/none?connect_timeout=1", environment: [:])
        let inFlight = InFlightCommit(transactionID: 1, serverStart: "-", marker: CommitMarker())
        let resolution = CommitResolution(inFlight: inFlight, cause: StorageError(.busy, "lost"))
        let conclusion = await resolution.conclude(
            configuration, counters: PostgresCounters(), gate: ConnectGate(pause: 0), seconds: 1, pause: 1_000)
        #expect(conclusion.verdict == nil)
        #expect(conclusion.attempts > 1)
        #expect(conclusion.serverError == nil)
    }
}
