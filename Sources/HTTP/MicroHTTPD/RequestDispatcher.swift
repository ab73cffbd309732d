internal import CMicroHTTPD
import Synchronization

/// The libmicrohttpd side of the server: turns access-handler calls into `Request`s, answers at once the requests
/// the responder can answer without suspending (`Responder.respondInline(to:)`), runs the responder in a `Task`
/// while the connection is suspended for every other, and queues the response after the resume.
///
/// The access handler never waits on Swift concurrency (STYLE.md, Concurrency 3): on the final call of a
/// request it first asks the responder for an inline answer (CPU-only work, run to completion on this thread) and
/// queues it; otherwise it suspends the connection and returns; the task resumes the connection when the response is
/// ready (MHD_resume_connection is thread-safe), and MHD calls the handler again, on its own thread, to
/// queue it. Both answers go through the same `queue`. Suspended connections do not time out, so each one has a
/// deadline enforced by `sweep`.
final class RequestDispatcher: Sendable {
    /// A suspended request, the instant its responder must be done by, and what a 503 in its place needs.
    struct Suspension: Sendable {
        let context: RequestContext
        let deadline: ContinuousClock.Instant
        /// The request without its body, for `Responder.completeRefusal` when the 503 answers it.
        let head: Request
        /// Whether the responder has handed a write to its store: then the 503 may no longer answer in its place.
        let commitment: RequestCommitment
        /// The responder's task, cancelled when the deadline or shutdown answers in its place (`nil` until the
        /// task exists).
        var task: Task<Void, Never>?
    }

    /// Suspended requests; once `isClosed`, nothing new may be suspended (the daemon is about to stop).
    struct SuspendedRequests: Sendable {
        var isClosed = false
        var entries: [ObjectIdentifier: Suspension] = [:]
    }

    let responder: any Responder
    let observer: (any RequestObserver)?
    let maxBodyBytes: Int
    let maxDiscardBytes: Int
    let requestDeadline: Duration
    /// The longest header section a connection's memory pool can hold (`ReceivedHeaderSection`).
    let headerSectionLimit: Int
    /// Open connections: their read deadlines and lingering closes.
    let connections: ConnectionRegistry

    /// Requests between their first access-handler call and their completion callback.
    let activeRequests = Atomic<Int>(0)
    /// Set when shutdown starts: responses then carry `Connection: close` so keep-alive clients leave.
    let isDraining = Atomic<Bool>(false)
    let suspended = Mutex(SuspendedRequests())

    init(configuration: HTTPServer.Configuration, responder: any Responder, observer: (any RequestObserver)?) {
        self.responder = responder
        self.observer = observer
        self.maxBodyBytes = max(0, configuration.maxBodyBytes)
        self.maxDiscardBytes = max(0, configuration.maxDiscardBytes)
        self.requestDeadline = configuration.requestDeadline
        self.headerSectionLimit =
            configuration.connectionMemoryLimit > 0
            ? configuration.connectionMemoryLimit : ReceivedHeaderSection.defaultPoolBytes
        self.connections = ConnectionRegistry(
            readTimeout: configuration.requestReadTimeout, writeTimeout: configuration.responseWriteTimeout,
            networks: NetworkConnectionLimit(limit: configuration.perNetworkConnectionLimit),
            lingering: .init(
                bytes: maxDiscardBytes, duration: configuration.requestReadTimeout,
                connections: max(1, configuration.connectionLimit)))
    }

    // MARK: access handler

    /// One access-handler call (see MHD_AccessHandlerCallback): the first call of a request (headers),
    /// body chunks, the final call, and the call after a resume.
    func access(
        connection: OpaquePointer,
        url: UnsafePointer<CChar>,
        method: UnsafePointer<CChar>,
        version: UnsafePointer<CChar>,
        uploadData: UnsafePointer<CChar>?,
        uploadDataSize: UnsafeMutablePointer<Int>,
        slot: UnsafeMutablePointer<UnsafeMutableRawPointer?>
    ) -> MHD_Result {
        // The first call finds the URI log callback's record of the target there (`CMicroHTTPD_record_target`).
        guard let raw = slot.pointee, CMicroHTTPD_recorded_target_length(raw) < 0 else {
            return begin(connection: connection, url: url, method: method, version: version, slot: slot)
        }
        let context = Unmanaged<RequestContext>.fromOpaque(raw).takeUnretainedValue()
        let chunkSize = uploadDataSize.pointee
        if chunkSize > 0 {
            uploadDataSize.pointee = 0  // every byte is consumed: kept, or discarded
            return receive(uploadData, count: chunkSize, into: context)
        }
        let phase = context.phase.withLock { phase -> Phase in
            switch phase {
            case .receiving: return .dispatch
            case .ready(let response):
                phase = .finished
                return .send(response)
            case .suspended, .finished: return .none
            }
        }
        if case .dispatch = phase {
            connections.requestReceived(on: connection)
        }
        switch phase {
        case .dispatch where context.isOversized:
            // RFC 9112 §9.6: the whole (bounded) chunked upload was read, so this 413 reaches the client before the
            // close.
            return queue(
                refusal(HTTPError(.bodyTooLarge, "body over \(maxBodyBytes) bytes"), context, url: url), for: context,
                closing: true)
        case .dispatch:
            return dispatch(context, url: url)
        case .send(let response):
            return queue(response, for: context, closing: false)
        case .none:
            return .NO
        }
    }

    private enum Phase {
        case dispatch
        case send(Response)
        case none
    }

    /// The first call: the headers are complete. Creates the context and checks the framing (`admit`).
    private func begin(
        connection: OpaquePointer,
        url: UnsafePointer<CChar>,
        method: UnsafePointer<CChar>,
        version: UnsafePointer<CChar>,
        slot: UnsafeMutablePointer<UnsafeMutableRawPointer?>
    ) -> MHD_Result {
        let targetLength = CMicroHTTPD_recorded_target_length(slot.pointee)
        let context = RequestContext(connection: connection, startedAt: .now)
        slot.pointee = Unmanaged.passRetained(context).toOpaque()  // released once, in `completed`
        activeRequests.add(1, ordering: .relaxed)
        observer?.requestStarted()
        let received = HTTPMethod(rawValue: String(cString: method))
        context.method = HTTPMethod.implemented.contains(received) ? received : .other
        context.headers = Self.headers(of: connection)
        context.requestID = RequestID.accepting(context.headers[RequestID.headerName])
        context.remoteAddress = Self.clientAddress(of: connection)
        context.readDeadline = connections.readDeadline(of: connection)
        return admit(
            context, method: received, methodText: method, version: version, url: url, targetLength: targetLength)
    }

    /// A body chunk: kept while under the limit, then discarded up to `maxDiscardBytes`.
    private func receive(_ data: UnsafePointer<CChar>?, count: Int, into context: RequestContext) -> MHD_Result {
        // The read deadline (`ConnectionRegistry`): MHD cannot queue a response in the middle of a body, so a body
        // still arriving after it ends the connection.
        if let deadline = context.readDeadline, ContinuousClock.now >= deadline { return .NO }
        if !context.isOversized, context.body.count + count <= maxBodyBytes, let data {
            data.withMemoryRebound(to: UInt8.self, capacity: count) { bytes in
                context.body.append(contentsOf: UnsafeBufferPointer(start: bytes, count: count))
            }
            return .YES
        }
        if !context.isOversized {
            // A chunked body (or one longer than declared) just grew over the limit.
            context.isOversized = true
            context.discardedBytes = context.body.count
            context.body = []
        }
        context.discardedBytes += count
        // Past the discard bound the connection is dropped: MHD cannot queue a response mid-upload.
        return context.discardedBytes - maxBodyBytes > maxDiscardBytes ? .NO : .YES
    }

    /// The transport's own answer for `error` (413, 400, 501, 408), completed by the responder
    /// (`Responder.completeRefusal`) from the request line and header fields, and labelled with the route its path
    /// matches (`Responder.route(for:)`), else `CompletedRequest.transportRoute`: the access log and the metrics
    /// then say where the refusal came from, not "unmatched" as if the router had found no route.
    func refusal(_ error: HTTPError, _ context: RequestContext, url: UnsafePointer<CChar>) -> Response {
        let head = Self.request(context, url: url, body: [])
        var response = error.response
        responder.completeRefusal(&response, to: head)
        response.route = responder.route(for: head) ?? CompletedRequest.transportRoute
        return response
    }

    /// The request line, query and header fields of `context`'s connection, with `body`.
    static func request(_ context: RequestContext, url: UnsafePointer<CChar>, body: [UInt8]) -> Request {
        let connection = context.connection
        return Request(
            method: context.method,
            path: String(cString: url),
            query: queryArguments(of: connection),
            headers: context.headers,
            body: body,
            remoteAddress: context.remoteAddress,
            requestID: context.requestID
        )
    }

    /// The final call: builds the request and queues the responder's inline answer, if it has one; otherwise
    /// suspends the connection and starts the responder in a task.
    private func dispatch(_ context: RequestContext, url: UnsafePointer<CChar>) -> MHD_Result {
        let connection = context.connection
        let request = Self.request(context, url: url, body: context.body)
        context.body = []  // the request owns the bytes now
        if let response = inlineAnswer(to: request) {
            return queue(response, for: context, closing: false)
        }
        var head = request
        head.body = []
        let deadline = ContinuousClock.now + requestDeadline
        let commitment = RequestCommitment(deadline: deadline)
        let suspension = Suspension(context: context, deadline: deadline, head: head, commitment: commitment)
        let admitted = context.phase.withLock { phase -> Bool in
            let isOpen = suspended.withLock { registry -> Bool in
                guard !registry.isClosed else { return false }
                registry.entries[ObjectIdentifier(context)] = suspension
                return true
            }
            guard isOpen else { return false }
            phase = .suspended
            // Suspended under the lock, so no resume (responder, deadline, shutdown) can come first.
            MHD_suspend_connection(connection)
            return true
        }
        guard admitted else {
            return queue(unavailable(answering: head), for: context, closing: true)
        }
        let responder = self.responder
        let task = Task {
            let response = await RequestCommitment.$current.withValue(commitment) {
                await responder.respond(to: request)
            }
            self.finish(context, with: response)
        }
        // Only while still suspended: a task that already finished has removed its entry.
        suspended.withLock { $0.entries[ObjectIdentifier(context)]?.task = task }
        return .YES
    }

    /// The responder's answer to `request` on this thread, with no suspension (`Responder.respondInline(to:)`), or
    /// `nil` when it needs a task. Once shutdown has closed the registry, always `nil`: the request then takes the
    /// suspending path's own answer for a closing server (the 503 with `Connection: close`), so a closing server
    /// answers every request alike.
    private func inlineAnswer(to request: Request) -> Response? {
        guard !suspended.withLock({ $0.isClosed }) else { return nil }
        return responder.respondInline(to: request)
    }

    /// Delivers `response` if the request is still waiting for one (it may have timed out meanwhile).
    func finish(_ context: RequestContext, with response: Response) {
        if context.resume(with: response) {
            _ = suspended.withLock { $0.entries.removeValue(forKey: ObjectIdentifier(context)) }
        }
    }

    /// The answer for a request whose responder overran its deadline, or that shutdown cut short.
    static var unavailable: Response {
        // RFC 6749 §4.1.2.1: `temporarily_unavailable`; RFC 9110 §15.6.4.
        .error(status: 503, error: "temporarily_unavailable", description: "The server could not answer in time.")
    }

    /// `unavailable`, completed by the responder (`Responder.completeRefusal`) for `head`, so that a web page
    /// can read it as it reads the endpoint's own answers, and labelled with the route `head` belongs to
    /// (`Responder.route(for:)`), so that the access log and the metrics name it rather than "unmatched".
    func unavailable(answering head: Request) -> Response {
        answer(Self.unavailable, inPlaceOf: head)
    }

    /// `response`, given by the transport in place of the responder's answer to `head`: completed by the responder
    /// and labelled with `head`'s route.
    func answer(_ response: Response, inPlaceOf head: Request) -> Response {
        var response = response
        responder.completeRefusal(&response, to: head)
        response.route = responder.route(for: head)
        return response
    }
}
