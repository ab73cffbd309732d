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

    /// The methods this server implements; the transport answers any other with 501 (RFC 9110 §15.6.2: a method
    /// the server does not support for any resource). CONNECT (RFC 9110 §9.3.6) asks for a tunnel, which only a
    /// proxy offers, and TRACE (§9.3.8) reflects the request's fields back (cross-site tracing), so both are left
    /// out: no route could use them.
    public static let implemented: Set<HTTPMethod> = [.get, .head, .post, .put, .patch, .delete, .options]

    /// What metrics and logs record for a method outside `implemented`: a method token is the client's choice, and
    /// each distinct one would otherwise become a metrics series and a log value of its own.
    public static let other = HTTPMethod(rawValue: "other")
}
