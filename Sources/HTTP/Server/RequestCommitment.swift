import Synchronization

/// Whether a request's effects have begun, so that the HTTP layer never answers 503 for a request whose write
/// commits.
///
/// The dispatcher creates one per request and runs the responder with it in `RequestCommitment.current`. Each
/// moves once, either way: `open → committed` when the responder hands a write to its store (`commit()`), or
/// `open → expired` when the deadline or shutdown answers 503 in the responder's place (`expire()`). Exactly one
/// of the two wins: a committed request is answered by its responder, however late; an expired one gets the
/// 503 and its writes are withdrawn before they begin (`commit()` throws), so the 503 is true.
///
/// ```swift
/// try RequestCommitment.current?.commit()  // before handing a write to the store
/// ```
public final class RequestCommitment: Sendable {
    /// The commitment of the request whose responder is running in this task (`nil` outside a request).
    @TaskLocal public static var current: RequestCommitment?

    private static let open: UInt8 = 0
    private static let committed: UInt8 = 1
    private static let expired: UInt8 = 2

    private let state = Atomic<UInt8>(RequestCommitment.open)

    /// When the request is answered 503 if it has not committed, and by when a committed request's writes should
    /// end (a store bounds their statements by it: `WriteAdmission.deadline`); `nil`: no deadline.
    public let deadline: ContinuousClock.Instant?

    /// A new, open commitment for a request due at `deadline`.
    public init(deadline: ContinuousClock.Instant? = nil) {
        self.deadline = deadline
    }

    /// Commits the request: from now on its answer is the responder's, never a 503 in its place. Idempotent.
    /// - Throws: `.requestWithdrawn` if the deadline or shutdown already answered the request (nothing may be
    ///   written: the client was told it was not).
    public func commit() throws(HTTPError) {
        let (exchanged, original) = state.compareExchange(
            expected: Self.open, desired: Self.committed, ordering: .acquiringAndReleasing)
        guard exchanged || original == Self.committed else {
            throw HTTPError(.requestWithdrawn, "the request was answered 503 before its write began")
        }
    }

    /// Expires the request, if it has not committed: the caller may then answer 503 in the responder's place.
    /// - Returns: whether the request is expired (`false`: it committed, and its responder's answer must be awaited).
    func expire() -> Bool {
        let (exchanged, original) = state.compareExchange(
            expected: Self.open, desired: Self.expired, ordering: .acquiringAndReleasing)
        return exchanged || original == Self.expired
    }

    /// Whether the request has committed.
    public var isCommitted: Bool { state.load(ordering: .acquiring) == Self.committed }
}
