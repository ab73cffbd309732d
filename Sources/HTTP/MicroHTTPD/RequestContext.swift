internal import CMicroHTTPD
import Synchronization

/// Per-request state behind libmicrohttpd's `con_cls` pointer, and the executor the request's task runs on
/// (`RequestContext+TaskExecutor.swift`).
///
/// Ownership: the access handler stores one retained reference in `*con_cls` on the request's first call;
/// the completion callback takes it back exactly once. The responder task (its closure, and its executor
/// preference) and the suspended-request registry hold ordinary strong references, so the object outlives whichever
/// finishes last.
///
/// Thread-safety: the `var`s are touched only on the connection's own MHD thread (MHD serves a connection from
/// one thread); `execution` is behind a Mutex; `connection` is used off that thread only for MHD_resume_connection,
/// under `execution`'s lock, while the connection is suspended (so MHD cannot have freed it).
final class RequestContext: @unchecked Sendable {  // Invariant: see "Thread-safety" above.
    /// Where the request is in its life.
    enum Phase {
        /// Headers and body are arriving (MHD thread only).
        case receiving
        /// The MHD thread is running the request's task's jobs, inside the access handler.
        case running
        /// The connection is suspended: the task waits (for the store's writer, a timer, …) with no job to run.
        case suspended
        /// A job or an answer arrived while suspended, and the connection was resumed: MHD calls the access handler
        /// again, on the connection's thread, which runs the jobs or queues the answer.
        case resumed
        /// A response was queued, or the request was abandoned: the task's jobs, if any come, run on the
        /// cooperative pool.
        case finished
    }

    /// The request's execution: its phase, the task's jobs waiting for the MHD thread, and the answer once there is
    /// one (the responder's, or the 503/500 the transport gives in its place; the first one given wins).
    struct Execution {
        var phase = Phase.receiving
        var jobs: [UnownedJob] = []
        var answer: Response?
    }

    let connection: OpaquePointer
    let startedAt: ContinuousClock.Instant
    let execution = Mutex(Execution())

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

    /// Gives `response` as the request's answer if it has none yet and is still waiting for one (its task running,
    /// waiting or with jobs queued), resuming the connection if it is suspended; does nothing once a response was
    /// queued, so the responder, the deadline sweeper and shutdown can race and exactly one of them wins.
    /// Returns whether this call won.
    @discardableResult
    func resume(with response: Response) -> Bool {
        execution.withLock { execution in
            guard execution.answer == nil else { return false }
            switch execution.phase {
            case .receiving, .finished:
                return false
            case .running, .resumed:
                // The MHD thread is in (or about to enter) the access handler, and queues it before it suspends.
                execution.answer = response
                return true
            case .suspended:
                execution.answer = response
                execution.phase = .resumed
                // Under the lock: nothing else can resume this connection, and it stays suspended (alive) until now.
                MHD_resume_connection(connection)
                return true
            }
        }
    }

    /// Ends the request's execution (a response was queued, or MHD completed the request): later jobs of its task,
    /// and those still queued, go to the cooperative pool. Returns whether the task could still be waiting (the
    /// request was past `.receiving`: its registry entry, if any is left, must go).
    @discardableResult
    func endExecution() -> Bool {
        let (left, wasRunning) = execution.withLock { execution -> ([UnownedJob], Bool) in
            defer {
                execution.phase = .finished
                execution.jobs = []
            }
            switch execution.phase {
            case .receiving, .finished: return (execution.jobs, false)
            case .running, .suspended, .resumed: return (execution.jobs, true)
            }
        }
        for job in left { globalConcurrentExecutor.enqueue(ExecutorJob(job)) }
        return wasRunning
    }
}
