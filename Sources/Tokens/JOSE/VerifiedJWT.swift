import Foundation
import JSON

/// A JWT whose signature, type, times, issuer and audience have been checked. Only `JWTVerifier` creates one.
public struct VerifiedJWT: Sendable {
    /// The protected header.
    public let header: JWSHeader
    /// The payload bytes exactly as signed.
    public let rawPayload: [UInt8]
    /// The payload as parsed by the verifier (a JSON object, no repeated claim name), for reading private claims.
    public let payload: JSONValue
    /// `iss`.
    public let issuer: String
    /// `sub`, if present.
    public let subject: String?
    /// `aud`, always as a list.
    public let audience: [String]
    /// `exp`.
    public let expiresAt: Date
    /// `iat`, if present.
    public let issuedAt: Date?
    /// `nbf`, if present.
    public let notBefore: Date?
    /// `jti`, if present.
    public let jwtID: String?
}
