import Foundation
import Synchronization

/// The HTTP server: libmicrohttpd in front, a `Responder` behind.
///
/// ```swift
/// let server = HTTPServer(configuration: .init(port: 0), responder: router, observer: metrics)
/// let port = try server.start()
/// …
/// await server.shutdown(deadline: .seconds(10))
/// ```
public final class HTTPServer: Sendable {
    private enum State: Sendable {
        case idle
        case running(MicroHTTPDDaemon, sweeper: Task<Void, Never>)
        case stopped
    }

    /// The configuration the server was created with.
    public let configuration: Configuration
    private let responder: any Responder
    private let observer: (any RequestObserver)?
    private let state = Mutex(State.idle)

    /// Creates a server; nothing is bound until `start()`.
    public init(
        configuration: Configuration = Configuration(), responder: any Responder, observer: (any RequestObserver)? = nil
    ) {
        self.configuration = configuration
        self.responder = responder
        self.observer = observer
    }

    deinit {
        // Dropped without `shutdown`: the daemon's owner stops it; only the sweeper task needs a nudge.
        state.withLock { state in
            if case .running(_, let sweeper) = state { sweeper.cancel() }
        }
    }

    /// Binds and starts serving; returns the bound port (useful with `port: 0`). First raises the soft RLIMIT_NOFILE
    /// to what `connectionLimit` needs (`DescriptorBudget`).
    /// - Throws: `.invalidState` if already started, `.invalidConfiguration` (also when the hard RLIMIT_NOFILE is
    ///   below what `connectionLimit` needs), or `.startFailed`.
    @discardableResult
    public func start() throws(HTTPError) -> Int {
        try state.withLock { state throws(HTTPError) -> Int in
            guard case .idle = state else {
                throw HTTPError(.invalidState, "start() called twice")
            }
            try DescriptorBudget.ensure(for: configuration)
            let dispatcher = RequestDispatcher(configuration: configuration, responder: responder, observer: observer)
            let daemon = try MicroHTTPDDaemon(configuration: configuration, dispatcher: dispatcher)
            state = .running(daemon, sweeper: Self.startSweeper(dispatcher, deadline: configuration.requestDeadline))
            return daemon.port
        }
    }

    /// Shuts down gracefully: stop accepting (new connections are refused), let requests in flight finish
    /// within `deadline`, answer 503 for any still running that has not committed a write (`RequestCommitment`),
    /// wait up to `configuration.requestDeadline` for those that have, then stop the daemon. Safe to call more
    /// than once.
    public func shutdown(deadline: Duration) async {
        let running = state.withLock { state -> (MicroHTTPDDaemon, Task<Void, Never>)? in
            defer { state = .stopped }
            if case .running(let daemon, let sweeper) = state { return (daemon, sweeper) }
            return nil
        }
        guard let (daemon, sweeper) = running else { return }
        let dispatcher = daemon.dispatcher
        dispatcher.isDraining.store(true, ordering: .relaxed)
        daemon.quiesce()
        await Self.waitForIdle(dispatcher, until: .now + deadline)
        // Whatever is still suspended and has not committed a write gets its 503 now (see `RequestCommitment`);
        // a request that committed is answered by its responder: wait for it, up to one more request deadline.
        dispatcher.closeAndAnswerUncommitted()
        await Self.waitForCommitted(dispatcher, until: .now + configuration.requestDeadline)
        // Last resort for a responder still running: MHD_stop_daemon must find no suspended connection.
        dispatcher.closeAndResumeAll()
        // Give the answers a moment to be written.
        await Self.waitForIdle(dispatcher, until: .now + .milliseconds(250))
        sweeper.cancel()
        // MHD_stop_daemon joins threads: keep it off the cooperative pool (STYLE.md, Concurrency 2), and off
        // libdispatch's workers, which on Linux share that pool.
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            Thread.detachNewThread {
                daemon.stop()
                continuation.resume()
            }
        }
    }

    private static func waitForIdle(_ dispatcher: RequestDispatcher, until end: ContinuousClock.Instant) async {
        while dispatcher.activeRequests.load(ordering: .relaxed) > 0, ContinuousClock.now < end {
            do {
                try await Task.sleep(for: .milliseconds(5))
            } catch {
                return  // cancelled: stop waiting, shut down now
            }
        }
    }

    private static func waitForCommitted(_ dispatcher: RequestDispatcher, until end: ContinuousClock.Instant) async {
        while dispatcher.hasSuspendedRequests, ContinuousClock.now < end {
            do {
                try await Task.sleep(for: .milliseconds(5))
            } catch {
                return  // cancelled: stop waiting, shut down now
            }
        }
    }

    /// One task checks suspended requests against their deadline, a few times per deadline.
    private static func startSweeper(_ dispatcher: RequestDispatcher, deadline: Duration) -> Task<Void, Never> {
        PeriodicSweep.start(bounding: deadline) { dispatcher.sweep(now: .now) }
    }
}
