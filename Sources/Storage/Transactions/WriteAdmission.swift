/// The last word on whether a write may still begin, asked by the store once the write has what it queued for
/// (a pooled connection, its turn at the writer) and before its transaction begins.
///
/// A server answers 503 for a request whose write has not begun when its deadline passes; once the write begins,
/// the request's own answer must be awaited (a 503 would be a lie if the write then commits). Asked at the moment
/// the transaction begins rather than when the write is requested, the time a write spends queued behind a slow
/// database still counts against the deadline: the queued request gets its 503, and nothing is written.
///
/// Once begun, the write's answer is awaited, so a driver whose statements can wait on another process (a lock
/// held by another session, a stalled database server) bounds them by `deadline`: a statement still running then
/// fails, its transaction rolls back, and the request is answered `.busy` (503) when its deadline comes instead of
/// hanging as long as the database does. PostgreSQL does (`statement_timeout`); SQLite's writer is in this process
/// and the memory store never waits, so they have nothing to bound.
public struct WriteAdmission: Sendable {
    private let decide: @Sendable () throws -> Void
    /// When the write's answer is due (the request's deadline); `nil`: no bound.
    public let deadline: ContinuousClock.Instant?

    /// An admission that asks `decide`: returning lets the write begin, throwing withdraws it (the write then
    /// throws that error and runs nothing). A begun write's statements are bounded by `deadline`, if given.
    public init(deadline: ContinuousClock.Instant? = nil, _ decide: @escaping @Sendable () throws -> Void) {
        self.deadline = deadline
        self.decide = decide
    }

    /// Lets the write begin, or throws why it may not.
    public func admit() throws {
        try decide()
    }
}
