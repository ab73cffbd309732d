import Dispatch
import Foundation
import Storage

/// Asks the database what became of a write transaction whose connection broke during COMMIT (`InFlightCommit`),
/// on a connection of its own and a queue of its own, after the transaction's pool slot went back to the pool.
///
/// While the database is down, asking takes up to `seconds`. Done on the slot, it would hold the slot that long: with
/// every slot in doubt at a crash (likely on a busy node, where most slots are in COMMIT at any instant), every other
/// request would wait for a slot instead of getting its 503 at once, as it does when a slot's fresh connection fails.
struct CommitResolution: Sendable {
    let inFlight: InFlightCommit
    /// Why COMMIT failed, kept for the message of what follows.
    let cause: StorageError

    /// Waits for the verdict, for up to `seconds` (a restarting or failing-over database answers within that), and
    /// counts it: committed → returns; rolled back → `.busy` (nothing was written, the client may retry: 503);
    /// unknown, or no answer in time → `.io` (a 500 whose outcome is unknown).
    func resolve(
        _ configuration: PostgresConfiguration, counters: PostgresCounters, gate: ConnectGate, seconds: TimeInterval,
        pause: useconds_t = 100_000
    ) async throws(StorageError) {
        let result: Result<Void, StorageError> = await withCheckedContinuation { continuation in
            DispatchQueue(label: "passkeyd.postgres.commit-resolution").async {
                let connection = PostgresConnection(configuration: configuration, counters: counters, gate: gate)
                defer { connection.disconnect() }
                continuation.resume(
                    returning: Result { () throws(StorageError) in
                        try ask(connection, deadline: Date().addingTimeInterval(seconds), pause: pause)
                    })
            }
        }
        switch result {
        case .success:
            counters.count(.committed)
        case .failure(let error):
            counters.count(error.code == .busy ? .rolledBack : .unknown)
            throw error
        }
    }

    private func ask(_ connection: PostgresConnection, deadline: Date, pause: useconds_t) throws(StorageError) {
        while true {
            connection.resetFailure()
            var verdict: InFlightCommit.Verdict?
            do {
                try connection.connectIfNeeded()
                verdict = inFlight.verdict(statusValue: try connection.simpleValue(inFlight.statusSelect))
            } catch {
                // Not reachable yet: try again below.
            }
            switch verdict {
            case .committed?: return
            case .rolledBack?:
                throw StorageError(
                    .busy, "PostgreSQL connection lost during COMMIT; the transaction was rolled back: \(cause.reason)")
            case .unknown?:
                throw StorageError(
                    .io,
                    "PostgreSQL connection lost during COMMIT and the server restarted: outcome unknown: \(cause.reason)"
                )
            case .inProgress?, nil:
                break  // the old session's COMMIT is still being processed, or no answer yet
            }
            guard Date() < deadline else {
                throw StorageError(.io, "PostgreSQL connection lost during COMMIT, outcome unknown: \(cause.reason)")
            }
            usleep(pause)
        }
    }
}
