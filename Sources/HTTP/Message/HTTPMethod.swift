/// An HTTP request method (RFC 9110 §9). Methods are case-sensitive tokens, kept exactly as received.
public struct HTTPMethod: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// The method token, e.g. `"GET"`.
    public let rawValue: String

    /// Creates a method from its token.
    public init(rawValue: String) {
        self.rawValue = rawValue
    }

    /// The method token.
    public var description: String { rawValue }

    /// RFC 9110 §9.3.1
    public static let get = HTTPMethod(rawValue: "GET")
    /// RFC 9110 §9.3.2
    public static let head = HTTPMethod(rawValue: "HEAD")
    /// RFC 9110 §9.3.3
    public static let post = HTTPMethod(rawValue: "POST")
    /// RFC 9110 §9.3.4
    public static let put = HTTPMethod(rawValue: "PUT")
    /// RFC 9110 §9.3.5
    public static let delete = HTTPMethod(rawValue: "DELETE")
    /// RFC 9110 §9.3.7
    public static let options = HTTPMethod(rawValue: "OPTIONS")
    /// RFC 5789
    public static let patch = HTTPMethod(rawValue: "PATCH")
    /// RFC 9110 §9.3.8
    public static let trace = HTTPMethod(rawValue: "TRACE")
    /// The QUERY method (draft-ietf-httpbis-safe-method-w-body): a safe request with content.
    public static let query = HTTPMethod(rawValue: "QUERY")

    /// The methods this server recognises; the transport answers any other with 501 (RFC 9110 §15.6.2: a method
    /// the server does not recognise for any resource). CONNECT (RFC 9110 §9.3.6) asks for a tunnel, which only a
    /// proxy offers, so it is left out. TRACE (§9.3.8) and QUERY are methods the server knows but that no resource
    /// has: no route registers them (TRACE would reflect the request's fields back, cross-site tracing), so the
    /// router answers them 405 with `Allow` (§15.5.6) on an existing resource and 404 elsewhere, a client's error
    /// like any other method the resource lacks.
    public static let implemented: Set<HTTPMethod> = [
        .get, .head, .post, .put, .patch, .delete, .options, .trace, .query,
    ]

    /// What metrics and logs record for a method outside `implemented`: a method token is the client's choice, and
    /// each distinct one would otherwise become a metrics series and a log value of its own.
    public static let other = HTTPMethod(rawValue: "other")
}
