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
}
