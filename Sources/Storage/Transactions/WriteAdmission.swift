/// The last word on whether a write may still begin, asked by the store once the write has what it queued for
/// (a pooled connection, its turn at the writer) and before its transaction begins.
///
/// A server answers 503 for a request whose write has not begun when its deadline passes; once the write begins,
/// the request's own answer must be awaited (a 503 would be a lie if the write then commits). Asked at the moment
/// the transaction begins rather than when the write is requested, the time a write spends queued behind a slow
/// database still counts against the deadline: the queued request gets its 503, and nothing is written.
public struct WriteAdmission: Sendable {
    private let decide: @Sendable () throws -> Void

    /// An admission that asks `decide`: returning lets the write begin, throwing withdraws it (the write then
    /// throws that error and runs nothing).
    public init(_ decide: @escaping @Sendable () throws -> Void) {
        self.decide = decide
    }

    /// Lets the write begin, or throws why it may not.
    public func admit() throws {
        try decide()
    }
}
