import Foundation
import Storage
import Testing

@testable import StoragePostgres

/// A COMMIT in doubt that the server shows as committed is answered "committed" only once it is as durable as an
/// acknowledged COMMIT: replicated to the synchronous standbys the server requires. A primary restarted after a
/// crash shows commits it flushed but never replicated, which the standby's promotion then loses.
@Suite(
    "A COMMIT in doubt is committed only once the synchronous standbys have it",
    .enabled(if: ThrowawayCluster.isAvailable, ThrowawayCluster.skipReason), .serialized)
struct CommitOutcomeReplicationTests {
    @Test("a server that requires a standby that is not there: the verdict waits at the barrier, then is committed")
    func waitsForTheStandby() async throws {
        try await ThrowawayCluster.with { cluster in
            let (store, admin, probe, asked) = try await Self.askWhileTheStandbyIsAbsent(cluster, inserting: "waits")
            defer { admin.disconnect() }
            // The event: the question's barrier waits for synchronous replication (without the barrier the verdict
            // is given at once and no session ever waits).
            var waiting = false
            for _ in 0..<1_200 where !waiting {
                waiting =
                    try admin.simpleValue(
                        "SELECT count(*)::text FROM pg_stat_activity WHERE wait_event = 'SyncRep'") == "2"
                if !waiting { try await Task.sleep(for: .milliseconds(50)) }
            }
            #expect(waiting, "the question never waited for the standby")
            // The standby is no longer required (the failover manager's move when the standby is gone for good).
            try Self.releaseTheStandby(admin)
            let conclusion = await asked.value
            await probe.task.value
            #expect(conclusion.verdict == .committed)
            #expect(try await store.read { try $0.authSession(id: "waits") }?.id == "waits")
            await store.close()
        }
    }

    @Test("a barrier that fails (the session ended while it waited): no verdict from that server, asked again")
    func barrierEndedIsAskedAgain() async throws {
        try await ThrowawayCluster.with { cluster in
            let (store, admin, probe, asked) = try await Self.askWhileTheStandbyIsAbsent(cluster, inserting: "ended")
            defer { admin.disconnect() }
            // Each barrier that starts waiting is ended, as a demotion ends the old primary's sessions; the third
            // time, the standby is no longer required.
            // A terminated session may still be listed for a moment: each barrier (its server process) counts once.
            var barriers: Set<String> = [probe.pid]
            var ended = 0
            for _ in 0..<2_400 where ended < 3 {
                let waiting = try admin.simpleValue(
                    "SELECT pid::text FROM pg_stat_activity WHERE wait_event = 'SyncRep' AND pid NOT IN ("
                        + barriers.joined(separator: ",") + ") LIMIT 1")
                if let pid = waiting {
                    barriers.insert(pid)
                    ended += 1
                    if ended == 3 {
                        try Self.releaseTheStandby(admin)
                    } else {
                        _ = try admin.simpleValue("SELECT pg_terminate_backend(\(pid))::text")
                    }
                } else {
                    try await Task.sleep(for: .milliseconds(50))
                }
            }
            #expect(ended == 3)
            let conclusion = await asked.value
            await probe.task.value
            #expect(conclusion.verdict == .committed)
            #expect(conclusion.attempts >= 3)
            await store.close()
        }
    }

    /// A write that committed, its answer taken as lost; then the server made to require a standby that is not there
    /// (`requireAbsentStandby`), and the question about the write started. Returns the store, the admin connection
    /// (the caller disconnects it), the waiting probe and the question's task.
    static func askWhileTheStandbyIsAbsent(_ cluster: ThrowawayCluster, inserting id: String) async throws -> (
        PostgresStore, PostgresConnection, Probe, Task<CommitResolution.Conclusion, Never>
    ) {
        let configuration = try cluster.configuration()
        let store = try await PostgresStore.open(configuration)
        let (connection, inFlight) = try CommitOutcomeAfterRestartTests.begin(configuration, inserting: id)
        #expect(try connection.command("COMMIT") == "COMMIT")
        connection.disconnect()
        let admin = PostgresConnection(configuration: configuration, counters: PostgresCounters())
        try admin.connectIfNeeded()
        // From now on every COMMIT that wrote waits for a standby named "absent", as a primary restarted after a
        // crash waits for the standby that is being promoted instead.
        let probe = try await requireAbsentStandby(admin, configuration)
        let resolution = CommitResolution(inFlight: inFlight, cause: StorageError(.busy, "answer lost"))
        let asked = Task {
            await resolution.conclude(
                configuration, counters: PostgresCounters(), gate: ConnectGate(), seconds: 120, pause: 1_000)
        }
        return (store, admin, probe, asked)
    }

    /// No standby is required any more (the failover manager's move when the standby is gone for good): every
    /// waiting COMMIT returns.
    static func releaseTheStandby(_ admin: PostgresConnection) throws {
        try admin.command("ALTER SYSTEM RESET synchronous_standby_names")
        _ = try admin.simpleValue("SELECT pg_reload_conf()")
    }

    /// A probe transaction waiting at its COMMIT for the standby: its task and its server process.
    struct Probe {
        let task: Task<Void, Never>
        let pid: String
    }

    /// Makes the server require a synchronous standby named "absent" and returns once a COMMIT really waits for it
    /// (the setting reaches the server's processes some time after the reload: a probe that did not wait is sent
    /// again; it writes a table of its own, as a COMMIT that wrote nothing does not wait), as a primary restarted after a crash waits for the standby that is being promoted instead.
    static func requireAbsentStandby(
        _ admin: PostgresConnection, _ configuration: PostgresConfiguration
    ) async throws -> Probe {
        try admin.command("CREATE TABLE IF NOT EXISTS probe (n integer)")
        try admin.command("ALTER SYSTEM SET synchronous_standby_names = 'absent'")
        _ = try admin.simpleValue("SELECT pg_reload_conf()")
        for _ in 0..<200 {
            let task = Task.detached {
                let connection = PostgresConnection(configuration: configuration, counters: PostgresCounters())
                defer { connection.disconnect() }
                try? connection.connectIfNeeded()
                _ = try? connection.simpleValue(
                    "SET application_name = 'probe'; BEGIN; INSERT INTO probe VALUES (1)")
                _ = try? connection.command("COMMIT")
            }
            for _ in 0..<40 {
                if let pid = try admin.simpleValue(
                    "SELECT pid::text FROM pg_stat_activity WHERE wait_event = 'SyncRep' AND application_name = 'probe'"
                ) {
                    return Probe(task: task, pid: pid)
                }
                try await Task.sleep(for: .milliseconds(25))
            }
            await task.value
        }
        throw StorageError(.io, "no COMMIT ever waited for the standby")
    }
}
