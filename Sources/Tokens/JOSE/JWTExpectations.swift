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
    /// Values `aud` may contain instead of `audience` (any one suffices): a client assertion's several names of the
    /// authorization server.
    let otherAudiences: [String]
    /// Whether a token with no `typ`, or the generic `JWT`, is accepted besides `type`: client assertions (RFC 7523),
    /// which most clients do not type explicitly.
    let acceptsUntyped: Bool

    /// Collects the expectations.
    public init(type: String, issuer: String, audience: String, now: Date) {
        self.init(type: type, issuer: issuer, checkedAudience: audience, now: now)
    }

    /// The expectations of a token of this issuer whatever its audience: for the issuer's own bookkeeping of a token
    /// it minted (RFC 7009 revocation), never for a resource deciding whether the token is for it (RFC 9068 §4).
    public static func anyAudience(type: String, issuer: String, now: Date) -> JWTExpectations {
        JWTExpectations(type: type, issuer: issuer, checkedAudience: nil, now: now)
    }

    /// The expectations of a client assertion (RFC 7523 §3): issued by the client itself, for one of `audiences` (the
    /// authorization server's names: its issuer, its token endpoint, the endpoint receiving the assertion), typed
    /// `client-authentication+jwt` or not at all (or `JWT`).
    public static func clientAssertion(clientID: String, audiences: [String], now: Date) -> JWTExpectations {
        JWTExpectations(
            type: ClientAssertion.type, issuer: clientID, checkedAudience: audiences.first, now: now,
            otherAudiences: Array(audiences.dropFirst()), acceptsUntyped: true)
    }

    private init(
        type: String, issuer: String, checkedAudience: String?, now: Date, otherAudiences: [String] = [],
        acceptsUntyped: Bool = false
    ) {
        self.type = type
        self.issuer = issuer
        self.audience = checkedAudience
        self.now = now
        self.otherAudiences = otherAudiences
        self.acceptsUntyped = acceptsUntyped
    }
}
