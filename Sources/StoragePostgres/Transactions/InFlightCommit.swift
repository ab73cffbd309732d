/// A write transaction whose connection may break during COMMIT: what it takes at BEGIN, and what the database's
/// later answer (`txid_status`) says about whether it committed.
///
/// `txid_status` alone is not enough across a crash or a failover: the server's next transaction id is recovered
/// from the WAL, so an id that never reached the WAL is handed out again, and "committed" may then be another
/// transaction's status. That happens exactly when this transaction's commit record was not flushed, that is
/// when it did not commit. So after the server restarted, "committed" tells nothing (the outcome is unknown),
/// while "aborted" still means rolled back (an id whose commit reached the WAL is never handed out again). The
/// server's start time, taken at BEGIN and asked again with the status, tells whether it restarted meanwhile.
struct InFlightCommit: Sendable, Equatable {
    /// What the transaction's BEGIN round trip selects after `BEGIN`: its id and the server's start time.
    static let beginSelect = "SELECT txid_current()::text || '|' || pg_postmaster_start_time()::text"

    /// The transaction's id (`txid_current()`, epoch included).
    let transactionID: Int64
    /// When the server that runs it started (`pg_postmaster_start_time()`, as text).
    let serverStart: String

    /// What the answer to `statusSelect` says.
    enum Verdict: Equatable {
        /// The transaction committed: its body's result stands.
        case committed
        /// It rolled back: nothing was written.
        case rolledBack
        /// Its COMMIT is still being processed (or, after a restart, its id is another's, still running): ask again.
        case inProgress
        /// The database cannot tell.
        case unknown
    }

    /// Parses the value `beginSelect` gave; nil when it is not in that form.
    init?(beginValue: String?) {
        guard let parts = beginValue.map(Self.split), let id = Int64(parts.0) else { return nil }
        transactionID = id
        serverStart = parts.1
    }

    /// The statement that asks, on a new connection, what became of the transaction.
    var statusSelect: String {
        "SELECT coalesce(txid_status(\(transactionID)), 'unknown') || '|' || pg_postmaster_start_time()::text"
    }

    /// The verdict of the value `statusSelect` gave.
    func verdict(statusValue: String?) -> Verdict {
        guard let (status, start) = statusValue.map(Self.split) else { return .unknown }
        let restarted = start != serverStart
        switch status {
        case "committed": return restarted ? .unknown : .committed
        case "in progress": return .inProgress
        // "aborted" (also what crash recovery makes of an unfinished commit); "unknown" (NULL: too old to know,
        // impossible seconds later, or an id never handed out again after a restart): nothing was written.
        default: return .rolledBack
        }
    }

    /// "a|b" → ("a", "b") at the first bar ("b" when there is none).
    private static func split(_ value: String) -> (String, String) {
        guard let bar = value.firstIndex(of: "|") else { return (value, "") }
        return (String(value[..<bar]), String(value[value.index(after: bar)...]))
    }
}
