import Dispatch
import Foundation
import Storage

/// Asks the database what became of a write transaction whose connection broke during COMMIT (`InFlightCommit`),
/// on a connection of its own and a queue of its own, after the transaction's pool slot went back to the pool.
///
/// While the database is down, asking takes up to `seconds`. Done on the slot, it would hold the slot that long: with
/// every slot in doubt at a crash (likely on a busy node, where most slots are in COMMIT at any instant), every other
/// request would wait for a slot instead of getting its 503 at once, as it does when a slot's fresh connection fails.
///
/// Only a database that does not answer is asked again (and a COMMIT still in progress, or a standby that answered):
/// a server that answers the question with an ERROR ends the wait at once, as outcome unknown.
struct CommitResolution: Sendable {
    let inFlight: InFlightCommit
    /// Why COMMIT failed, kept for the message of what follows.
    let cause: StorageError

    /// What the questions concluded.
    struct Conclusion: Equatable {
        /// The last verdict; nil when no server answered in time.
        var verdict: InFlightCommit.Verdict?
        /// The questions asked (connection attempts included).
        var attempts: Int
        /// The ERROR an answering server gave instead of a status, if it did.
        var serverError: StorageError?
    }

    /// Waits for the verdict, for up to `seconds` (a restarting or failing-over database answers within that), and
    /// counts it: committed → returns; rolled back → `.busy` (nothing was written, the client may retry: 503);
    /// unknown, or no answer in time → `.io` (a 500 whose outcome is unknown).
    func resolve(
        _ configuration: PostgresConfiguration, counters: PostgresCounters, gate: ConnectGate, seconds: TimeInterval,
        pause: useconds_t = 100_000
    ) async throws(StorageError) {
        let conclusion = await conclude(configuration, counters: counters, gate: gate, seconds: seconds, pause: pause)
        switch conclusion.verdict {
        case .committed?:
            counters.count(.committed)
        case .rolledBack?:
            counters.count(.rolledBack)
            throw StorageError(
                .busy, "PostgreSQL connection lost during COMMIT; the transaction was rolled back: \(cause.reason)")
        case .unknown?:
            counters.count(.unknown)
            let why =
                conclusion.serverError.map { "the database could not say (\($0.reason))" }
                ?? "the server restarted"
            throw StorageError(
                .io, "PostgreSQL connection lost during COMMIT and \(why): outcome unknown: \(cause.reason)")
        case .inProgress?, .standby?, nil:
            counters.count(.unknown)
            throw StorageError(.io, "PostgreSQL connection lost during COMMIT, outcome unknown: \(cause.reason)")
        }
    }

    /// Asks until a verdict that needs no second question, or `seconds` passed; counts nothing.
    func conclude(
        _ configuration: PostgresConfiguration, counters: PostgresCounters, gate: ConnectGate, seconds: TimeInterval,
        pause: useconds_t = 100_000
    ) async -> Conclusion {
        await withCheckedContinuation { continuation in
            DispatchQueue(label: "passkeyd.postgres.commit-resolution").async {
                let connection = PostgresConnection(configuration: configuration, counters: counters, gate: gate)
                defer { connection.disconnect() }
                continuation.resume(
                    returning: ask(connection, deadline: Date().addingTimeInterval(seconds), pause: pause))
            }
        }
    }

    private func ask(_ connection: PostgresConnection, deadline: Date, pause: useconds_t) -> Conclusion {
        var conclusion = Conclusion(verdict: nil, attempts: 0, serverError: nil)
        while true {
            conclusion.attempts += 1
            connection.resetFailure()
            do {
                try connection.connectIfNeeded()
                conclusion.verdict = inFlight.verdict(statusValue: try connection.simpleValue(inFlight.statusSelect))
            } catch {
                // A server that answered with an ERROR (the session still open) will not answer otherwise: stop
                // here. No answer at all (cannot connect, the connection dropped): try again below.
                if connection.isConnected {
                    conclusion.verdict = .unknown
                    conclusion.serverError = error
                }
            }
            switch conclusion.verdict {
            case .committed?, .rolledBack?, .unknown?: return conclusion
            case .inProgress?, .standby?, nil:
                break  // the old session's COMMIT is still being processed, a standby answered, or no answer yet
            }
            guard Date() < deadline else { return conclusion }
            usleep(pause)
        }
    }
}
