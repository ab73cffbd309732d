/// Receives one event when a request starts and one when it ends (metrics, access logs).
///
/// Called on libmicrohttpd's threads: implementations must be cheap and must not block.
public protocol RequestObserver: Sendable {
    /// A request's headers arrived (pairs with exactly one `requestCompleted`).
    func requestStarted()
    /// A request ended: its response was sent, or the connection went away first.
    func requestCompleted(_ event: CompletedRequest)
}

/// What an observer learns about a finished request.
public struct CompletedRequest: Sendable {
    /// Status reported when no response could be delivered (the client went away, the daemon stopped);
    /// the nginx convention "client closed request".
    public static let noResponseStatus = 499
    /// The label used for `route` when no route matched.
    public static let unmatchedRoute = "unmatched"
    /// The label used for `route` when the HTTP layer refused the request before routing (413, 400, 501, 408) and
    /// its path matches no route: the request never reached the router, so it did not go "unmatched" there.
    public static let transportRoute = "transport"

    /// The request method: one of `HTTPMethod.implemented`, or `HTTPMethod.other` for any other (which was
    /// answered 501), so an observer may use it as a metrics label or log value as it is.
    public let method: HTTPMethod
    /// The matched route pattern, or `"unmatched"` (the router found none), or `"transport"` (the HTTP layer
    /// refused the request before routing, and its path matches no route).
    public let route: String
    /// The status sent, or `noResponseStatus`.
    public let status: Int
    /// Seconds from the request's headers to the end of the response.
    public let duration: Double
    /// The request id sent back in `X-Request-Id`.
    public let requestID: String
    /// The peer's IP address, when known.
    public let remoteAddress: String?

    /// Creates an event.
    public init(
        method: HTTPMethod, route: String, status: Int, duration: Double, requestID: String, remoteAddress: String?
    ) {
        self.method = method
        self.route = route
        self.status = status
        self.duration = duration
        self.requestID = requestID
        self.remoteAddress = remoteAddress
    }
}
