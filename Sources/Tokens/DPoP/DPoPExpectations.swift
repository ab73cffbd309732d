import Foundation

/// What a DPoP proof must say to be accepted on one request (RFC 9449 §4.3), and the instant to judge it at.
public struct DPoPExpectations: Sendable {
    /// The request's method, compared with `htm` exactly (RFC 9110 §9.1: methods are case-sensitive).
    public let method: String
    /// The request's URI as the server is reached (`issuer` origin and the request path), compared with `htu`
    /// after normalisation, query and fragment ignored.
    public let targetURI: String
    /// The current time (a parameter: this module reads no clock).
    public let now: Date
    /// How far `iat` may be from `now`, either way, in seconds (RFC 9449 §11.1: a short window).
    public let window: TimeInterval
    /// The nonces the server accepts now (RFC 9449 §8), or `nil` when it asks for none.
    public let acceptedNonces: [String]?
    /// The access token presented with the proof (RFC 9449 §7: then `ath` is required), if any.
    public let accessToken: String?
    /// The `jkt` the access token or refresh token is bound to (RFC 9449 §6.1), if any.
    public let boundThumbprint: String?

    /// Collects the expectations.
    public init(
        method: String, targetURI: String, now: Date, window: TimeInterval, acceptedNonces: [String]? = nil,
        accessToken: String? = nil, boundThumbprint: String? = nil
    ) {
        self.method = method
        self.targetURI = targetURI
        self.now = now
        self.window = window
        self.acceptedNonces = acceptedNonces
        self.accessToken = accessToken
        self.boundThumbprint = boundThumbprint
    }
}
