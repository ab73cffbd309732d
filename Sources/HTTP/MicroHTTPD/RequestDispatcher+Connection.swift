internal import CMicroHTTPD
import Synchronization

/// Reading from and writing to one MHD connection (MHD thread only), and the end of a request.
extension RequestDispatcher {
    /// Queues `response` on the connection (MHD copies the body and headers).
    func queue(_ response: Response, for context: RequestContext, closing: Bool) -> MHD_Result {
        var response = response
        response.applyRetryAfterRule()  // every 503 on the wire says when to retry, whoever produced it
        // RFC 9110 §15: three-digit status codes; anything else is a responder bug.
        let status = (100...599).contains(response.status) ? response.status : 500
        let created = response.body.withUnsafeBytes { bytes in
            CMicroHTTPD_response_copying(bytes.baseAddress, bytes.count)
        }
        guard let mhdResponse = created else { return .NO }
        defer { MHD_destroy_response(mhdResponse) }
        for field in response.headers {
            // MHD computes the framing itself (RFC 9112 §6): a responder must not set it.
            if HTTPHeaders.namesMatch(field.name, "Content-Length")
                || HTTPHeaders.namesMatch(field.name, "Transfer-Encoding")
                || HTTPHeaders.namesMatch(field.name, RequestID.headerName)
            {
                continue
            }
            // MHD refuses names/values with CR, LF or NUL (header injection); such a field is dropped.
            _ = MHD_add_response_header(mhdResponse, field.name, field.value)
        }
        _ = MHD_add_response_header(mhdResponse, RequestID.headerName, context.requestID)
        if closing || isDraining.load(ordering: .relaxed) {
            // RFC 9112 §9.6: "close" tells the client this is the connection's last response.
            _ = MHD_add_response_header(mhdResponse, "Connection", "close")
        }
        context.sentStatus = status
        context.sentRoute = response.route
        context.phase.withLock { $0 = .finished }
        let queued = MHD_queue_response(context.connection, UInt32(status), mhdResponse)
        if queued == .YES { connections.responseQueued(on: context.connection) }
        return queued
    }

    /// The completion callback (MHD_OPTION_NOTIFY_COMPLETED): releases the context stored in `*con_cls`. A request
    /// that ended before the access handler's first call holds only the URI log callback's record: nothing to release.
    func completed(slot: UnsafeMutablePointer<UnsafeMutableRawPointer?>?) {
        guard let slot, let raw = slot.pointee else { return }
        slot.pointee = nil
        guard CMicroHTTPD_recorded_target_length(raw) < 0 else { return }
        let context = Unmanaged<RequestContext>.fromOpaque(raw).takeRetainedValue()
        // MHD frees the connection after this returns: a late responder must not resume it.
        let wasSuspended = context.phase.withLock { phase -> Bool in
            defer { phase = .finished }
            if case .suspended = phase { return true }
            return false
        }
        if wasSuspended {
            _ = suspended.withLock { $0.entries.removeValue(forKey: ObjectIdentifier(context)) }
        }
        activeRequests.subtract(1, ordering: .relaxed)
        guard let observer else { return }
        let elapsed = ContinuousClock.now - context.startedAt
        observer.requestCompleted(
            CompletedRequest(
                method: context.method,
                route: context.sentRoute ?? CompletedRequest.unmatchedRoute,
                status: context.sentStatus ?? CompletedRequest.noResponseStatus,
                duration: Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18,
                requestID: context.requestID,
                remoteAddress: context.remoteAddress
            ))
    }

    /// Answers 503 for every suspended request whose responder is past its deadline and has not committed (see
    /// `RequestCommitment`), and cancels the responder's task: nobody will read what it produces, so work that
    /// checks for cancellation stops early. A committed request stays: its responder's answer is the one sent.
    func sweep(now: ContinuousClock.Instant) {
        let overdue = suspended.withLock { registry -> [Suspension] in
            var overdue: [Suspension] = []
            for (key, entry) in registry.entries where entry.deadline <= now && entry.commitment.expire() {
                registry.entries[key] = nil
                overdue.append(entry)
            }
            return overdue
        }
        answerInPlace(overdue)
    }

    /// Stops suspending new requests and answers 503 for every suspended request that has not committed; the
    /// committed ones are left to their responders (`hasSuspendedRequests` says when they are done).
    func closeAndAnswerUncommitted() {
        let withdrawn = suspended.withLock { registry -> [Suspension] in
            registry.isClosed = true
            var withdrawn: [Suspension] = []
            for (key, entry) in registry.entries where entry.commitment.expire() {
                registry.entries[key] = nil
                withdrawn.append(entry)
            }
            return withdrawn
        }
        answerInPlace(withdrawn)
    }

    /// Whether any request is still suspended (its responder running).
    var hasSuspendedRequests: Bool {
        suspended.withLock { !$0.entries.isEmpty }
    }

    /// Stops suspending new requests and answers every request still suspended, so that MHD_stop_daemon finds no
    /// suspended connection (it aborts the process if it does): 503 for those that have not committed, and for
    /// those that have (their write's outcome is unknown here) a 500 that does not claim nothing was done.
    /// `HTTPServer.shutdown` calls it only once the committed requests have had their time
    /// (`closeAndAnswerUncommitted` first).
    func closeAndResumeAll() {
        let remaining = suspended.withLock { registry -> [Suspension] in
            registry.isClosed = true
            defer { registry.entries.removeAll() }
            return Array(registry.entries.values)
        }
        answerInPlace(remaining.filter { $0.commitment.expire() })
        for suspension in remaining where suspension.commitment.isCommitted {
            suspension.context.resume(with: answer(Self.interrupted, inPlaceOf: suspension.head))
            suspension.task?.cancel()
        }
    }

    /// The answer for a committed request whose responder was still running when the server had to stop.
    static var interrupted: Response {
        // RFC 6749 §5.2 `server_error`; RFC 9110 §15.6.1.
        .error(
            status: 500, error: "server_error",
            description: "The server stopped before the request finished; its outcome is unknown.")
    }

    /// Resumes each suspension with the completed 503 and cancels its responder's task.
    private func answerInPlace(_ suspensions: [Suspension]) {
        for suspension in suspensions {
            suspension.context.resume(with: unavailable(answering: suspension.head))
            suspension.task?.cancel()
        }
    }

    // MARK: reading the request

    /// Every request header, in order (binary-safe: MHD passes lengths).
    static func headers(of connection: OpaquePointer) -> HTTPHeaders {
        var headers = HTTPHeaders()
        withUnsafeMutablePointer(to: &headers) { pointer in
            _ = MHD_get_connection_values_n(
                connection, .HEADER_KIND,
                { cls, _, key, keySize, value, valueSize in
                    guard let cls, let key else { return .YES }
                    let fields = cls.assumingMemoryBound(to: HTTPHeaders.self)
                    fields.pointee.add(
                        name: RequestDispatcher.string(key, keySize),
                        value: value.map { RequestDispatcher.string($0, valueSize) } ?? "")
                    return .YES
                }, pointer)
        }
        return headers
    }

    /// The query arguments, decoded by MHD ('+' as space, percent-escapes); the first of repeated names wins.
    static func queryArguments(of connection: OpaquePointer) -> [String: String] {
        var query: [String: String] = [:]
        withUnsafeMutablePointer(to: &query) { pointer in
            _ = MHD_get_connection_values_n(
                connection, .GET_ARGUMENT_KIND,
                { cls, _, key, keySize, value, valueSize in
                    guard let cls, let key else { return .YES }
                    let arguments = cls.assumingMemoryBound(to: [String: String].self)
                    let name = RequestDispatcher.string(key, keySize)
                    if arguments.pointee[name] == nil {
                        arguments.pointee[name] = value.map { RequestDispatcher.string($0, valueSize) } ?? ""
                    }
                    return .YES
                }, pointer)
        }
        return query
    }

    /// The peer's address as text.
    static func clientAddress(of connection: OpaquePointer) -> String? {
        withUnsafeTemporaryAllocation(of: CChar.self, capacity: 64) { buffer -> String? in
            guard let base = buffer.baseAddress else { return nil }
            let length = CMicroHTTPD_client_address(connection, base, buffer.count)
            guard length > 0, length < buffer.count else { return nil }
            return String(cString: base)
        }
    }

    /// Bytes from C as a String; invalid UTF-8 (obs-text, RFC 9110 §5.5) is repaired, never trusted.
    private static func string(_ pointer: UnsafePointer<CChar>, _ count: Int) -> String {
        pointer.withMemoryRebound(to: UInt8.self, capacity: count) {
            String(decoding: UnsafeBufferPointer(start: $0, count: count), as: UTF8.self)
        }
    }
}
