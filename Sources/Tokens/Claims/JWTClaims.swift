/// A claims set this module can sign: its JWS `typ` and its deterministic JSON payload.
public protocol JWTClaims: Sendable {
    /// The `typ` header value (RFC 8725 §3.11 explicit typing), e.g. "at+jwt".
    static var type: String { get }
    /// The payload JSON: members sorted by name, no whitespace, optional claims omitted.
    /// - Throws: `.invalidClaim` / `.invalidLifetime` when the claims break a rule of their type.
    func payload() throws(TokenError) -> [UInt8]
}
