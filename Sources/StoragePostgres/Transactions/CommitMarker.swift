/// A random value a write transaction inserts into `commit_markers` (schema v15) in its BEGIN round trip, so that
/// whether its COMMIT took effect can be read from the data itself: the row exists exactly when the transaction
/// committed, on whichever server holds the data now.
///
/// `txid_status` answers only on the server that ran the transaction, as long as it did not restart
/// (`InFlightCommit`); the marker also answers after a crash and restart (crash recovery replays a commit whose
/// record reached the WAL, and with it the row) and after a failover (the promoted standby has the row exactly
/// when it received the commit record). Only uniqueness matters, not secrecy: 16 bytes from the system's CSPRNG
/// (`SystemRandomNumberGenerator`: `getrandom(2)` on Linux) never repeat in practice.
///
/// Markers cost no round trip of their own: the INSERT, and the DELETE of the connection's previous marker (whose
/// COMMIT answered, so it is no longer needed), go with BEGIN, in the pipeline that carries the transaction's first
/// statement (`PostgresConnection.deferTransaction`). So the table holds
/// about one row per open connection; housekeeping deletes what is left behind (the marker of a connection that
/// closed, of a COMMIT in doubt) after `retention`.
struct CommitMarker: Sendable, Equatable {
    /// The marker's length in bytes.
    static let byteCount = 16
    /// How long a marker left behind is kept (an SQL interval): a marker is read at most
    /// `PostgresStore.outcomeResolutionSeconds` after its COMMIT; the margin covers the clocks of a primary and of
    /// the standby promoted in its place, which write and purge `created_at`.
    static let retention = "1 hour"

    /// The marker's bytes.
    let bytes: [UInt8]

    /// A fresh random marker.
    init() {
        var generator = SystemRandomNumberGenerator()
        bytes = (0..<Self.byteCount).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
    }

    /// The marker `bytes` (tests); nil unless `byteCount` bytes long.
    init?(bytes: [UInt8]) {
        guard bytes.count == Self.byteCount else { return nil }
        self.bytes = bytes
    }

    /// The marker as an SQL bytea expression. Built by passkeyd from hex digits only, never from input, and read the
    /// same whatever `standard_conforming_strings` says (no backslash).
    var literal: String {
        let digits = Array("0123456789abcdef")
        let hex = String(bytes.flatMap { [digits[Int($0 >> 4)], digits[Int($0 & 0x0f)]] })
        return "decode('\(hex)', 'hex')"
    }

    /// Inserts the marker (in the transaction's BEGIN round trip).
    var insert: String { "INSERT INTO commit_markers (marker) VALUES (\(literal))" }

    /// Deletes the marker (in the BEGIN round trip of the same connection's next write, once this one's COMMIT
    /// answered).
    var delete: String { "DELETE FROM commit_markers WHERE marker = \(literal)" }

    /// An SQL expression: 'present' when the marker's row is there (its transaction committed), else 'absent'.
    var presence: String {
        "CASE WHEN EXISTS (SELECT 1 FROM commit_markers WHERE marker = \(literal)) THEN 'present' ELSE 'absent' END"
    }

    /// Deletes up to `$1` markers older than `retention` by the database's clock (housekeeping); rows a concurrent
    /// transaction holds are skipped, not waited for.
    static let purge = """
        DELETE FROM commit_markers WHERE marker IN (
            SELECT marker FROM commit_markers WHERE created_at < now() - interval '\(retention)'
            ORDER BY created_at LIMIT $1 FOR UPDATE SKIP LOCKED)
        """
}
