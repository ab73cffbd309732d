import Foundation

/// What a JWT must say to be accepted, and the instant to judge its times at.
public struct JWTExpectations: Sendable {
    /// The expected `typ`, e.g. `AccessTokenClaims.type`.
    public let type: String
    /// The expected `iss`.
    public let issuer: String
    /// A value that `aud` must contain.
    public let audience: String
    /// The current time (a parameter: this module reads no clock).
    public let now: Date

    /// Collects the expectations.
    public init(type: String, issuer: String, audience: String, now: Date) {
        self.type = type
        self.issuer = issuer
        self.audience = audience
        self.now = now
    }
}
