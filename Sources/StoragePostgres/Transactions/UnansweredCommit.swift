import Storage

/// A write whose COMMIT went in the pipeline of its one statement (`PostgresConnection.commitWithNextStatement`) and
/// whose connection broke before any answer of that pipeline arrived: the client knows neither the statement's value
/// nor the transaction's id, only the commit marker the transaction inserted before its statement (`CommitMarker`).
///
/// The Flush sent before COMMIT makes the server send every answer up to the statement's before it runs COMMIT, so
/// the server committed only if those answers were sent and then lost on the way: a connection reset, a network that
/// loses delivered bytes, a host that died with them in its buffers. A killed or crashed database server cannot
/// commit without having sent them. A dead pooled connection (the database restarted since its last use) meets this
/// case on every restart, and there nothing ran at all.
///
/// The question, asked on a connection of its own, inserts the same marker and commits: `ON CONFLICT DO NOTHING`
/// waits for a transaction that inserted the marker and is still in progress (the old session, if it lives on), then
/// finds the row there exactly when that transaction committed. So the answer needs neither the old transaction's id
/// nor the old server's identity, and holds on the same server, a restarted one and a promoted standby alike (the
/// standby has the row exactly when it received the commit record). When the row was not there, the question's own
/// row, committed, fences the old transaction off: were its pipeline still to reach a live session (bytes delayed
/// rather than lost), its marker's insert would fail on the primary key and it could never commit, so "rolled back"
/// stays true. Housekeeping deletes that row after `CommitMarker.retention`, as any marker left behind.
struct UnansweredCommit: Sendable, Equatable {
    /// The marker the transaction inserted.
    let marker: CommitMarker

    /// How long one question waits for a transaction still in progress (`statement_timeout` of the probe), in
    /// milliseconds; a question that times out is asked again, within `PostgresStore.outcomeResolutionSeconds`.
    static let waitMilliseconds = 1_000

    /// Whether the answering server is a standby, which cannot take the probe's insert (asked first).
    static let recoverySelect = "SELECT pg_is_in_recovery()::text"

    /// The probe, up to its result, as one simple-query string; its transaction is committed afterwards. Its one
    /// value is 'absent' when the insert went in (no committed marker: the row now fences the old transaction off),
    /// no row when the marker was there.
    var probe: String {
        "BEGIN; SET LOCAL statement_timeout = \(Self.waitMilliseconds); "
            + "\(marker.insert) ON CONFLICT (marker) DO NOTHING RETURNING 'absent'"
    }

    /// Asks `connection` once. Throws when the server gave no answer (the caller asks again) or answered with an
    /// ERROR other than a timeout of the probe's wait (`serverError`).
    func ask(_ connection: PostgresConnection) throws(StorageError) -> InFlightCommit.Verdict {
        if try connection.simpleValue(Self.recoverySelect) == "true" { return .standby }
        do throws(StorageError) {
            let found = try connection.simpleValue(probe)
            // Only a fence that committed makes "rolled back" final.
            guard try connection.command("COMMIT") == "COMMIT" else {
                throw StorageError(.internalFailure, "the commit marker's probe did not commit")
            }
            return found == "absent" ? .rolledBack : .committed
        } catch {
            guard connection.isConnected else { throw error }
            _ = try? connection.command("ROLLBACK")
            // The probe's wait for the old transaction timed out (its own `statement_timeout`, or an operator's shorter
            // `lock_timeout`): that transaction is still in progress.
            if let state = connection.firstSQLState, PostgresFailure.timeoutStates.contains(state) {
                return .inProgress
            }
            throw error
        }
    }
}
