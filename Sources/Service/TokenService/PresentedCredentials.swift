/// What authenticating a request reads of it (RFC 6750 §2.1, RFC 9449 §7): its `Authorization` header, every `DPoP`
/// header, its method and its path. The HTTP layer fills it in; the token service needs nothing else of a request.
public struct PresentedCredentials: Sendable, Equatable {
    /// The `Authorization` header's value, if any.
    public var authorization: String?
    /// The values of every `DPoP` header, in order (more than one is refused, RFC 9449 §4.3 check 1).
    public var dpopProofs: [String]
    /// The request method, as received (`htm`).
    public var method: String
    /// The request's percent-decoded path, without the query (what `htu` names, after the issuer's origin).
    public var path: String

    /// Creates the credentials of one request.
    public init(authorization: String?, dpopProofs: [String] = [], method: String, path: String) {
        self.authorization = authorization
        self.dpopProofs = dpopProofs
        self.method = method
        self.path = path
    }
}
