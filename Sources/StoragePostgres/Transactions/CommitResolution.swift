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
///
/// Two questions: a COMMIT whose answer was lost after the statement's (`InFlightCommit`: the body's value is known and
/// stands if it committed), and a pipelined COMMIT whose connection broke before any answer (`UnansweredCommit`: the
/// value is not known, so a commit found there is still an unknown outcome for the caller, `.io`).
struct CommitResolution: Sendable {
    /// What is asked.
    enum Question: Sendable, Equatable {
        case inFlight(InFlightCommit)
        case unanswered(UnansweredCommit)
    }

    let question: Question
    /// Why COMMIT failed, kept for the message of what follows.
    let cause: StorageError

    init(inFlight: InFlightCommit, cause: StorageError) {
        self.init(question: .inFlight(inFlight), cause: cause)
    }

    init(question: Question, cause: StorageError) {
        self.question = question
        self.cause = cause
    }

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
        try settle(conclusion, counters: counters)
    }

    /// Counts `conclusion` and returns when the body's value stands (an in-flight COMMIT found committed), else
    /// throws its `failure`.
    func settle(_ conclusion: Conclusion, counters: PostgresCounters) throws(StorageError) {
        if conclusion.verdict == .committed, !question.isUnanswered {
            counters.count(.committed)
            return
        }
        throw failure(conclusion, counters: counters)
    }

    /// Counts `conclusion` and gives the error the write ends with when the body's value cannot stand: rolled back →
    /// `.busy` (nothing was written); unknown, no answer in time, or an unanswered COMMIT found committed (its
    /// statement's value never arrived) → `.io`.
    func failure(_ conclusion: Conclusion, counters: PostgresCounters) -> StorageError {
        switch conclusion.verdict {
        case .committed?:
            counters.count(.unknown)
            return StorageError(
                .io,
                "PostgreSQL connection lost before its statement's answer; the transaction committed, "
                    + "its result is unknown: \(cause.reason)")
        case .rolledBack?:
            counters.count(.rolledBack)
            return StorageError(
                .busy, "PostgreSQL connection lost during COMMIT; the transaction was rolled back: \(cause.reason)")
        case .unknown?:
            counters.count(.unknown)
            let why =
                conclusion.serverError.map { "the database could not say (\($0.reason))" }
                ?? "the server restarted"
            return StorageError(
                .io, "PostgreSQL connection lost during COMMIT and \(why): outcome unknown: \(cause.reason)")
        case .inProgress?, .standby?, nil:
            counters.count(.unknown)
            return StorageError(.io, "PostgreSQL connection lost during COMMIT, outcome unknown: \(cause.reason)")
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
                switch question {
                case .inFlight(let inFlight):
                    conclusion.verdict = inFlight.verdict(
                        statusValue: try connection.simpleValue(inFlight.statusSelect))
                case .unanswered(let unanswered):
                    conclusion.verdict = try unanswered.ask(connection)
                }
            } catch {
                // A server that answered with an ERROR (the session still open) will not answer otherwise: stop
                // here. No answer at all (cannot connect, the connection dropped): try again below.
                if connection.isConnected {
                    conclusion.verdict = .unknown
                    conclusion.serverError = error
                }
            }
            // An unanswered COMMIT found committed is an unknown outcome all the same: no barrier to wait for.
            if conclusion.verdict == .committed, !question.isUnanswered, !isReplicated(on: connection) {
                conclusion.verdict = nil  // not yet known to be durable where a failover would go: ask again
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

    /// Whether what this server has committed so far is as durable as an acknowledged COMMIT: a transaction that
    /// writes, committed on the same connection, waits at its COMMIT for the synchronous standbys
    /// (`synchronous_standby_names`, `synchronous_commit`) to confirm the WAL up to its commit record, which comes
    /// after the in-doubt transaction's (PostgreSQL 15 §27.2.8). Without this, a primary restarted after a crash
    /// (its keeper restarts it before the failover manager demotes it), or one whose session broke while COMMIT
    /// waited for the standby, shows a commit that it flushed but that never reached the standby, which a promotion
    /// then loses: the write would be answered 200 and vanish. The wait is not cancelled by a `statement_timeout`
    /// (a cancelled wait lets COMMIT succeed with only a warning): it ends when the standbys confirm, when the
    /// server is demoted or stopped (the connection is then lost), or when the operator's failover manager stops
    /// requiring the standby. False when the barrier failed; the connection is then dropped, and the next question
    /// connects afresh (perhaps to the new primary).
    private func isReplicated(on connection: PostgresConnection) -> Bool {
        do {
            _ = try connection.simpleValue(Self.durabilityBarrier)
            guard try connection.command("COMMIT") == "COMMIT" else {
                connection.disconnect()
                return false
            }
            return true
        } catch {
            connection.disconnect()
            return false
        }
    }

    /// The barrier's transaction, up to its COMMIT. It must write WAL: a transaction that only took an id commits
    /// without flushing and without waiting for the standbys (PostgreSQL's RecordTransactionCommit waits only for
    /// one that wrote). It rewrites the heartbeat row (v3; `/readyz` overwrites it too) with its own value, or
    /// creates it with the database's clock; and no timeout may cancel the wait.
    static let durabilityBarrier = """
        BEGIN; SET LOCAL statement_timeout = 0; \
        INSERT INTO heartbeat (id, beat_at) VALUES (1, extract(epoch FROM now())) \
        ON CONFLICT (id) DO UPDATE SET beat_at = heartbeat.beat_at
        """
}

extension CommitResolution.Question {
    /// Whether this is a pipelined COMMIT that lost its statement's answer.
    var isUnanswered: Bool {
        if case .unanswered = self { return true }
        return false
    }
}
