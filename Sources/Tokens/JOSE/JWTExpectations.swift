import Foundation

/// What a JWT must say to be accepted, and the instant to judge its times at.
public struct JWTExpectations: Sendable {
    /// The expected `typ`, e.g. `AccessTokenClaims.type`.
    public let type: String
    /// The expected `iss`.
    public let issuer: String
    /// A value that `aud` must contain; nil only from `anyAudience`.
    public let audience: String?
    /// The current time (a parameter: this module reads no clock).
    public let now: Date

    /// Collects the expectations.
    public init(type: String, issuer: String, audience: String, now: Date) {
        self.init(type: type, issuer: issuer, checkedAudience: audience, now: now)
    }

    /// The expectations of a token of this issuer whatever its audience: for the issuer's own bookkeeping of a token
    /// it minted (RFC 7009 revocation), never for a resource deciding whether the token is for it (RFC 9068 §4).
    public static func anyAudience(type: String, issuer: String, now: Date) -> JWTExpectations {
        JWTExpectations(type: type, issuer: issuer, checkedAudience: nil, now: now)
    }

    private init(type: String, issuer: String, checkedAudience: String?, now: Date) {
        self.type = type
        self.issuer = issuer
        self.audience = checkedAudience
        self.now = now
    }
}
