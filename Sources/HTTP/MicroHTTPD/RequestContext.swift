internal import CMicroHTTPD
import Synchronization

/// Per-request state behind libmicrohttpd's `con_cls` pointer.
///
/// Ownership: the access handler stores one retained reference in `*con_cls` on the request's first call;
/// the completion callback takes it back exactly once. The responder task and the suspended-request
/// registry hold ordinary strong references, so the object outlives whichever finishes last.
///
/// Thread-safety: the `var`s are touched only on the connection's own MHD thread (MHD serves a connection from
/// one thread); `phase` is behind a Mutex; `connection` is used off that thread only for MHD_resume_connection,
/// under `phase`'s lock, while the connection is suspended (so MHD cannot have freed it).
final class RequestContext: @unchecked Sendable {  // Invariant: see "Thread-safety" above.
    /// Where the request is in its life.
    enum Phase {
        /// Headers and body are arriving (MHD thread only).
        case receiving
        /// The connection is suspended while the responder runs.
        case suspended
        /// The response is ready; the connection was resumed to queue it.
        case ready(Response)
        /// A response was queued, or the request was abandoned.
        case finished
    }

    let connection: OpaquePointer
    let startedAt: ContinuousClock.Instant
    let phase = Mutex(Phase.receiving)

    // MARK: MHD-thread state

    /// The body received so far (never more than the limit).
    var body: [UInt8] = []
    /// Whether the body exceeded the limit; the rest of the upload is discarded.
    var isOversized = false
    /// Bytes discarded after the body exceeded the limit.
    var discardedBytes = 0
    /// The request method, recorded for the completion event: `HTTPMethod.other` for one outside
    /// `HTTPMethod.implemented`, which is refused, so that no client-chosen token reaches metrics or logs.
    var method = HTTPMethod.get
    /// The request's header fields, read once when they are complete.
    var headers = HTTPHeaders()
    /// When the whole request must have been received (`ConnectionRegistry`); `nil` for no limit.
    var readDeadline: ContinuousClock.Instant?
    /// The request id, echoed in the response and the completion event.
    var requestID = ""
    /// The peer address, for the request and the completion event.
    var remoteAddress: String?
    /// The status queued, when one was.
    var sentStatus: Int?
    /// The route pattern of the response queued, when one matched.
    var sentRoute: String?

    init(connection: OpaquePointer, startedAt: ContinuousClock.Instant) {
        self.connection = connection
        self.startedAt = startedAt
    }

    /// Moves `.suspended` to `.ready(response)` and resumes the connection; does nothing in any other phase,
    /// so the responder, the deadline sweeper and shutdown can race and exactly one of them wins.
    /// Returns whether this call won.
    @discardableResult
    func resume(with response: Response) -> Bool {
        phase.withLock { phase in
            guard case .suspended = phase else { return false }
            phase = .ready(response)
            // Under the lock: nothing else can resume this connection, and it stays suspended (alive) until now.
            MHD_resume_connection(connection)
            return true
        }
    }
}
