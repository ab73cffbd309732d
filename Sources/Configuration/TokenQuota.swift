/// A client's quota of machine-to-machine tokens (`token_quota.client_credentials`, the shape of Auth0's client
/// setting): at most `perHour` and `perDay` access tokens by the client credentials grant (RFC 6749 §4.4) in each UTC
/// hour and day; over it, the token request is answered 429 `too_many_requests` while `enforce` is on, and only
/// counted (the metric `token_quota_exceeded_unenforced`) while it is off, so that a limit can be watched before it
/// bites. A leaked secret then mints a bounded number of tokens, and a runaway job cannot flood the signing keys.
public struct TokenQuota: Sendable, Equatable {
    /// Tokens per UTC hour, if limited.
    public var perHour: Int?
    /// Tokens per UTC day, if limited.
    public var perDay: Int?
    /// Whether a request over the quota is refused (else only counted).
    public var enforce: Bool

    public init(perHour: Int?, perDay: Int?, enforce: Bool = true) {
        self.perHour = perHour
        self.perDay = perDay
        self.enforce = enforce
    }

    /// The largest quota a window may have.
    public static let maximum = 1_000_000_000
}
