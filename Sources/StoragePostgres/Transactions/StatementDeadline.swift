import Foundation

/// The bound a request's deadline puts on the statements of its write (`WriteAdmission.deadline`), for that
/// transaction only.
///
/// Set in the transaction's BEGIN round trip, as one more column of its select, so it costs no round trip of its own:
/// `set_config('statement_timeout', …, true)` (the `SET LOCAL` form) to the time left, unless the session's own
/// `statement_timeout` is shorter (the operator's `options`, or a role's or database's setting; read once per
/// connection, `PostgresConnection.sessionStatementTimeout`): passkeyd never loosens a bound the operator set. A
/// statement still running when it passes fails (57014), its transaction rolls back, and the request gets its 503 at
/// its deadline with nothing written, instead of waiting as long as a lock holder or a stalled server does. Each
/// statement gets the time left when the transaction began; a login's write is one statement. The comparison is made
/// here, not in SQL: casting the session's setting to an interval on every transaction cost PostgreSQL measurably
/// more CPU than setting a constant.
enum StatementDeadline {
    /// The select column that bounds the transaction's statements by `deadline` as seen at `now`, or nil when the
    /// session's own `statement_timeout` (milliseconds, 0: none) is no longer than the time left.
    static func column(deadline: ContinuousClock.Instant, now: ContinuousClock.Instant = .now, session: Int64)
        -> String?
    {
        bound(deadline: deadline, now: now, session: session).map { "set_config('statement_timeout', '\($0)', true)" }
    }

    /// The `statement_timeout` in milliseconds that bounds the transaction's statements by `deadline` as seen at
    /// `now`, or nil when the session's own (milliseconds, 0: none) is no longer than the time left: the value
    /// `WriteStart` sets, as `column` spells it.
    static func bound(deadline: ContinuousClock.Instant, now: ContinuousClock.Instant = .now, session: Int64)
        -> Int64?
    {
        let left = milliseconds(left: deadline - now)
        guard session == 0 || left < session else { return nil }
        return left
    }

    /// Whole milliseconds in `left`, rounded up, at least 1 (0 would mean no bound at all).
    static func milliseconds(left: Duration) -> Int64 {
        let (seconds, attoseconds) = left.components
        guard seconds >= 0, attoseconds >= 0 else { return 1 }
        let whole = seconds.multipliedReportingOverflow(by: 1_000)
        guard !whole.overflow else { return Int64.max / 1_000 }
        let fraction = (attoseconds + 999_999_999_999_999) / 1_000_000_000_000_000
        return max(1, whole.partialValue + fraction)
    }

    /// What reads the session's own `statement_timeout`, in milliseconds (pg_settings gives it in its base unit).
    static let sessionSelect = "SELECT setting FROM pg_settings WHERE name = 'statement_timeout'"
}
