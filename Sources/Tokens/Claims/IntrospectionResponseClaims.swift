import Foundation
import JSON

/// The claims of a token introspection response as a JWT (RFC 9701 §5): a resource server that asked for
/// `application/token-introspection+jwt` gets the RFC 7662 §2.2 answer signed by the authorization server, so that it
/// can prove later what the server said of a token, and when. Typed `token-introspection+jwt` (RFC 9701 §5, RFC 8725
/// §3.11), so that it can never pass as an access token or an ID token.
///
/// No `sub` and no `exp` at the top level (RFC 9701 §5 advises against both: a response must not be usable as an
/// access token); the token's own claims are members of `token_introspection`.
public struct IntrospectionResponseClaims: JWTClaims, Hashable {
    /// The `typ` header of introspection responses (RFC 9701 §5, the media type without `application/`).
    public static let type = "token-introspection+jwt"
    /// The media type a resource server asks for in `Accept` and that the response carries (RFC 9701 §4, §5).
    public static let mediaType = "application/token-introspection+jwt"

    /// `iss`: this authorization server.
    public var issuer: String
    /// `aud`: the resource server that asked, by its client identifier (RFC 9701 §5).
    public var audience: String
    /// `iat`: when the answer was given.
    public var issuedAt: Date
    /// `token_introspection`: the RFC 7662 §2.2 answer, a JSON object with a boolean `active`.
    public var introspection: JSONValue

    /// Collects the claims. Nothing is validated until `payload()`.
    public init(issuer: String, audience: String, issuedAt: Date, introspection: JSONValue) {
        self.issuer = issuer
        self.audience = audience
        self.issuedAt = issuedAt
        self.introspection = introspection
    }

    /// The RFC 9701 §5 payload: `iss`, `aud`, `iat` and `token_introspection`.
    /// - Throws: `.invalidClaim` for an empty `iss` or `aud`, or an answer that is not an object with a boolean
    ///   `active` (RFC 7662 §2.2: REQUIRED).
    public func payload() throws(TokenError) -> [UInt8] {
        guard !issuer.isEmpty, !audience.isEmpty else {
            throw TokenError(.invalidClaim, "iss and aud must be non-empty")
        }
        guard case .object = introspection, introspection["active"]?.boolValue != nil else {
            throw TokenError(.invalidClaim, "token_introspection must be an object with a boolean \"active\"")
        }
        var answer: [UInt8] = []
        JSONWriter.append(introspection, to: &answer)
        var writer = JSONObjectWriter()
        writer.set("iss", .string(issuer))
        writer.set("aud", .string(audience))
        writer.set("iat", .integer(try NumericDate.seconds(issuedAt, claim: "iat")))
        writer.set("token_introspection", .raw(answer))
        return writer.bytes()
    }
}
