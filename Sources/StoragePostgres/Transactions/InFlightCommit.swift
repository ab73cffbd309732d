/// A write transaction whose connection may break during COMMIT: what it takes at BEGIN, and what the database's
/// later answer says about whether it committed.
///
/// On the server that ran it, as long as that server did not restart, `txid_status` tells: committed, aborted or
/// still in progress. It cannot tell across a crash or a failover: the server's next transaction id is recovered
/// from the WAL, so an id that never reached the WAL is handed out again, and "committed" may then be another
/// transaction's status; a promoted standby that never saw the id calls it "in the future". The server's start time,
/// taken at BEGIN and asked again with the status, tells whether the answering server is the same one, unrestarted.
/// When it is not, the transaction's `CommitMarker` decides: its row is there exactly when the transaction committed
/// (present → committed, absent → rolled back; no transaction survives a restart, so nothing is in progress). A
/// store opened at a schema without markers (before v15, tests of migration) keeps the old rule there: "committed"
/// is unknown, "aborted" still means rolled back. A standby that answers (a URL without
/// `target_session_attrs=read-write`) is asked again: it may not have replayed the commit yet.
struct InFlightCommit: Sendable, Equatable {
    /// What the transaction's BEGIN round trip selects after `BEGIN`: its id and the server's start time.
    static let beginSelect = "SELECT txid_current()::text || '|' || pg_postmaster_start_time()::text"

    /// The transaction's id (`txid_current()`, epoch included).
    let transactionID: Int64
    /// When the server that runs it started (`pg_postmaster_start_time()`, as text).
    let serverStart: String
    /// The marker it inserted at BEGIN; nil when the store's schema has no marker table.
    let marker: CommitMarker?

    /// What the answer to `statusSelect` says.
    enum Verdict: Equatable {
        /// The transaction committed: its body's result stands.
        case committed
        /// It rolled back: nothing was written.
        case rolledBack
        /// Its COMMIT is still being processed (or, after a restart without a marker, its id is another's, still
        /// running): ask again.
        case inProgress
        /// A standby answered: it may not have replayed the commit yet; ask again (a promoted one answers).
        case standby
        /// The database cannot tell.
        case unknown
    }

    /// A transaction as recorded at BEGIN (tests build one directly, e.g. with an id the server never handed out).
    init(transactionID: Int64, serverStart: String, marker: CommitMarker?) {
        self.transactionID = transactionID
        self.serverStart = serverStart
        self.marker = marker
    }

    /// Parses the value `beginSelect` gave, for a transaction that inserted `marker`; nil when it is not in that form.
    init?(beginValue: String?, marker: CommitMarker? = nil) {
        guard let parts = beginValue.map(Self.fields), parts.count >= 2, let id = Int64(parts[0]) else { return nil }
        self.init(transactionID: id, serverStart: parts[1...].joined(separator: "|"), marker: marker)
    }

    /// The BEGIN round trip of a write transaction, as one simple-query string (one round trip): BEGIN, the DELETE
    /// of the connection's `settled` marker (its COMMIT answered), the INSERT of `marker`, then `beginSelect` with
    /// `extraColumns` (", …" or ""). Tests open a marked transaction by hand with it; the store's writes run the
    /// same effects as one prepared statement after BEGIN (`WriteStart`).
    static func begin(marker: CommitMarker?, settled: CommitMarker?, extraColumns: String = "") -> String {
        beginStatements(marker: marker, settled: settled, extraColumns: extraColumns).joined(separator: "; ")
    }

    /// The statements of `begin`, one by one.
    static func beginStatements(marker: CommitMarker?, settled: CommitMarker?, extraColumns: String = "") -> [String] {
        var statements = ["BEGIN ISOLATION LEVEL READ COMMITTED"]
        if let settled { statements.append(settled.delete) }
        if let marker { statements.append(marker.insert) }
        statements.append(beginSelect + extraColumns)
        return statements
    }

    /// The statement that asks, on a new connection, what became of the transaction: "status|marker|start".
    /// `txid_status` raises an ERROR for an id the server has not handed out yet ("in the future": a restarted or
    /// promoted server that never handed it out), so it is asked only of an id below the question's own
    /// (`txid_current()`, the newest the server handed out; a snapshot's xmax is not, while older ones are still in
    /// progress), 'future' otherwise. A standby is not asked (it cannot hand out an id).
    var statusSelect: String {
        let id = transactionID
        let status = """
            CASE WHEN pg_is_in_recovery() THEN 'standby' \
            WHEN \(id) < txid_current() THEN coalesce(txid_status(\(id)), 'unknown') ELSE 'future' END
            """
        return "SELECT \(status) || '|' || \(marker?.presence ?? "'none'") || '|' || pg_postmaster_start_time()::text"
    }

    /// The verdict of the value `statusSelect` gave.
    func verdict(statusValue: String?) -> Verdict {
        guard let parts = statusValue.map(Self.fields), parts.count >= 3 else { return .unknown }
        let (status, marker, start) = (parts[0], parts[1], parts[2...].joined(separator: "|"))
        if status == "standby" { return .standby }
        guard start == serverStart else {
            // Restarted, or another server (a failover): no transaction survived; the marker decides.
            switch marker {
            case "present": return .committed
            case "absent": return .rolledBack
            default: return Self.withoutMarker(status)
            }
        }
        switch status {
        case "committed": return .committed
        case "in progress": return .inProgress
        // "aborted" (also what crash recovery makes of an unfinished commit); "unknown" (NULL: too old to know,
        // impossible seconds later); "future" (impossible on the server that handed the id out): nothing written.
        default: return .rolledBack
        }
    }

    /// After a restart, for a transaction without a marker: "committed" may be another transaction's.
    private static func withoutMarker(_ status: String) -> Verdict {
        switch status {
        case "committed": return .unknown
        case "in progress": return .inProgress
        // "aborted": an id whose commit reached the WAL is never handed out again. "unknown", "future": an id this
        // server never handed out (or no longer knows), so nothing committed here.
        default: return .rolledBack
        }
    }

    /// "a|b|c" → ["a", "b", "c"].
    private static func fields(_ value: String) -> [String] {
        value.split(separator: "|", omittingEmptySubsequences: false).map(String.init)
    }
}
