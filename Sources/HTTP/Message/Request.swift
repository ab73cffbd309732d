/// One HTTP request as the responder sees it: immutable input, fully received (body included).
public struct Request: Sendable {
    /// The request method, as received.
    public var method: HTTPMethod
    /// The percent-decoded path, without the query (`/device-keys/abc/challenges`).
    public var path: String
    /// Query parameters ('+' as space, percent-decoded); for a repeated name the first value wins.
    public var query: [String: String]
    /// The query names that appeared more than once (each once, in order), for the endpoints that must refuse them
    /// (RFC 6749 §3.1: the authorization endpoint's parameters "MUST NOT be included more than once").
    public var repeatedQueryNames: [String] = []
    /// The header fields, in the order received.
    public var headers: HTTPHeaders
    /// The raw body bytes, exactly as received (never re-serialised).
    public var body: [UInt8]
    /// The peer's IP address in textual form, when known.
    public var remoteAddress: String?
    /// The request id: the client's `X-Request-Id` when sane, otherwise generated; echoed in the response.
    public var requestID: String
    /// Values of the `{name}` segments of the matched route; set by the `Router`.
    public var pathParameters: [String: String]
    /// The matched route pattern (e.g. `/device-keys/{key_id}/challenges`), for metrics and logs; set by the `Router`.
    public var route: String?

    /// Creates a request; the daemon and the test client use this, and so can tests.
    public init(
        method: HTTPMethod,
        path: String,
        query: [String: String] = [:],
        headers: HTTPHeaders = HTTPHeaders(),
        body: [UInt8] = [],
        remoteAddress: String? = nil,
        requestID: String = RequestID.generate(),
        pathParameters: [String: String] = [:],
        route: String? = nil
    ) {
        self.method = method
        self.path = path
        self.query = query
        self.headers = headers
        self.body = body
        self.remoteAddress = remoteAddress
        self.requestID = requestID
        self.pathParameters = pathParameters
        self.route = route
    }

    /// Creates a request from a request-target such as `/a%20b/c?x=1&y=2`: the path is percent-decoded
    /// and the query is decoded like a form (RFC 3986 §3.4, WHATWG URL `application/x-www-form-urlencoded`).
    ///
    /// Malformed escapes are kept literally, as libmicrohttpd does. The request id comes from a sane
    /// `X-Request-Id` header, otherwise it is generated.
    public init(method: HTTPMethod, target: String, headers: HTTPHeaders = HTTPHeaders(), body: [UInt8] = []) {
        let bytes = Array(target.utf8)
        let queryStart = bytes.firstIndex(of: UInt8(ascii: "?")) ?? bytes.endIndex
        let path = FormURLEncoding.lenientlyDecoded(bytes[..<queryStart], plusAsSpace: false)
        var query: [String: String] = [:]
        var repeated: [String] = []
        if queryStart < bytes.endIndex {
            for (name, value) in FormURLEncoding.lenientPairs(bytes[bytes.index(after: queryStart)...]) {
                guard query[name] == nil else {
                    if !repeated.contains(name) { repeated.append(name) }
                    continue
                }
                query[name] = value
            }
        }
        self.init(
            method: method,
            path: path,
            query: query,
            headers: headers,
            body: body,
            requestID: RequestID.accepting(headers["X-Request-Id"])
        )
        repeatedQueryNames = repeated
    }
}
