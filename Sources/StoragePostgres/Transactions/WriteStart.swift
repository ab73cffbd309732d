/// What a write transaction runs right after BEGIN, in the pipeline that carries its first statement: the DELETE of
/// the connection's settled marker, the INSERT of its own (`CommitMarker`) and the select of `InFlightCommit` (its
/// transaction id and the server's start time), with the request deadline's `set_config` (`StatementDeadline`).
///
/// One statement with parameters, prepared once per session like every other, instead of three statements spelled
/// with their values (`InFlightCommit.beginStatements`), which PostgreSQL parsed, analysed and planned again for
/// every write: a sixth of its CPU per login under the login load (issue 35). The effects are the same: the two data
/// changes are data-modifying CTEs, which PostgreSQL runs to completion whether or not the select reads them, in the
/// same transaction and before the body's first statement; a NULL settled marker deletes nothing. The CASE runs
/// `set_config` only when a bound is given (`$3` NULL: the session's own `statement_timeout` stands).
enum WriteStart {
    /// The statement for a store whose schema has `commit_markers` (`marks`) or not (before v15: no marker).
    static func sql(marks: Bool) -> String { marks ? markingSQL : plainSQL }

    /// The arguments of `sql(marks:)`: the settled marker, the new one (`marks` only) and the statement timeout in
    /// milliseconds, when the transaction is bounded.
    static func arguments(marker: CommitMarker?, settled: CommitMarker?, timeoutMilliseconds: Int64?)
        -> [PostgresValue]
    {
        let timeout = PostgresValue.optionalText(timeoutMilliseconds.map(String.init))
        guard let marker else { return [timeout] }
        return [.optionalBytea(settled?.bytes), .bytea(marker.bytes), timeout]
    }

    private static let markingSQL = """
        WITH settled AS (DELETE FROM commit_markers WHERE marker = $1), \
        marked AS (INSERT INTO commit_markers (marker) VALUES ($2)) \
        \(InFlightCommit.beginSelect), \
        CASE WHEN $3::text IS NOT NULL THEN set_config('statement_timeout', $3::text, true) END
        """

    private static let plainSQL = """
        \(InFlightCommit.beginSelect), \
        CASE WHEN $1::text IS NOT NULL THEN set_config('statement_timeout', $1::text, true) END
        """
}
