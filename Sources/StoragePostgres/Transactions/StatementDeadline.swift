import Foundation

/// The bound a request's deadline puts on the statements of its write (`WriteAdmission.deadline`), for that
/// transaction only.
///
/// Set in the transaction's BEGIN round trip, as one more column of its select, so it costs no round trip of its own:
/// `set_config('statement_timeout', …, true)` (the `SET LOCAL` form) to the time left, or to the session's own
/// `statement_timeout` when that is shorter (the operator's `options`, or a role's or database's setting): passkeyd
/// never loosens a bound the operator set. A statement still running when it passes fails (57014), its transaction
/// rolls back, and the request gets its 503 at its deadline with nothing written, instead of waiting as long as a lock
/// holder or a stalled server does. Each statement gets the time left when the transaction began; a login's write is
/// one statement.
enum StatementDeadline {
    /// The select column that bounds the transaction's statements by `deadline`, as seen at `now`.
    static func column(deadline: ContinuousClock.Instant, now: ContinuousClock.Instant = .now) -> String {
        "set_config('statement_timeout', (ceil(extract(epoch FROM least(nullif(current_setting('statement_timeout')"
            + "::interval, interval '0'), interval '\(milliseconds(left: deadline - now)) milliseconds')) * 1000))"
            + "::bigint::text, true)"
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
}
