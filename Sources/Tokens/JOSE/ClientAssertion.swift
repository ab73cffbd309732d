import Crypto
import Foundation
import JSON

/// A client's JWT assertion of its own identity (RFC 7523 §2.2, §3; OIDC Core §9 `private_key_jwt`), verified with the
/// public keys configured for the client: signed by one of them (RS256, or RS384 or PS256 where its JWK says so, or
/// ES256), `iss` and `sub` the client's id,
/// `aud` one of the authorization server's names, `exp` within `maximumLifetime`, and a `jti` the caller spends once.
public struct ClientAssertion: Sendable {
    /// `client_assertion_type` (RFC 7523 §2.2).
    public static let assertionType = "urn:ietf:params:oauth:client-assertion-type:jwt-bearer"
    /// The explicit `typ` of a client assertion (draft-ietf-oauth-rfc7523bis); absent and `JWT` are accepted too.
    public static let type = "client-authentication+jwt"
    /// The furthest in the future `exp` may lie: a `jti` is remembered until `exp`, so an assertion is short-lived.
    public static let maximumLifetime: TimeInterval = 3_600
    /// The longest `jti` kept.
    public static let maximumJWTIDLength = 256

    /// The assertion's `jti`: unique per assertion, to be spent once (RFC 7523 §3 item 7).
    public let jwtID: String
    /// Its `exp`: until when the `jti` must be remembered.
    public let expiresAt: Date

    /// The `iss` of `token` before any check, to find the client whose keys verify it when the request names no
    /// `client_id` (RFC 7521 §4.2: the assertion identifies the client). Never trusted before `verify` succeeds.
    public static func claimedIssuer(of token: String) -> String? {
        let segments = token.split(separator: ".", omittingEmptySubsequences: false)
        guard token.utf8.count <= JWTVerifier.Configuration().maxTokenLength, segments.count == 3,
            let payload = Base64URL.decode(segments[1]),
            let value = try? JSONValue(parsing: payload)
        else { return nil }
        return value["iss"]?.stringValue
    }

    /// Verifies `token` as `clientID`'s assertion, signed by one of `keys` (by `kid`; a client with one key need not
    /// name it), for one of `audiences`, at `now`.
    /// - Throws: the verifier's codes (`.unknownKey`, `.invalidSignature`, `.expired`, `.invalidIssuer`,
    ///   `.invalidAudience`, …); `.invalidClaim` when `sub` is not `iss`; `.missingClaim` without a `jti`;
    ///   `.invalidLifetime` for an `exp` more than `maximumLifetime` ahead.
    public init(
        verifying token: String, clientID: String, keys: [String: JWTVerificationKey], audiences: [String], now: Date
    ) throws(TokenError) {
        let verifier = JWTVerifier(keys: keys, configuration: .init(soleKeyWithoutKeyID: true))
        let verified = try verifier.verify(
            token, expecting: .clientAssertion(clientID: clientID, audiences: audiences, now: now))
        // RFC 7523 §3 items 1–2: iss and sub are both the client's id.
        guard verified.subject == clientID else {
            throw TokenError(.invalidClaim, "sub \(verified.subject ?? "(none)") is not the client's id")
        }
        guard let jwtID = verified.jwtID, !jwtID.isEmpty, jwtID.utf8.count <= Self.maximumJWTIDLength else {
            throw TokenError(.missingClaim, "jti is missing, empty or longer than \(Self.maximumJWTIDLength) bytes")
        }
        guard verified.expiresAt.timeIntervalSince(now) <= Self.maximumLifetime else {
            throw TokenError(.invalidLifetime, "exp is more than \(Int(Self.maximumLifetime)) s ahead")
        }
        self.jwtID = jwtID
        self.expiresAt = verified.expiresAt
    }
}
