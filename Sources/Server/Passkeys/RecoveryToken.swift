import Storage

/// The restricted access token of a recovery (`urn:passkeyd:params:oauth:grant-type:recovery-code`): its only
/// power is adding a passkey (`POST /me/passkeys/challenge`, `POST /me/passkeys`) within `lifetime`.
///
/// It is issued for its own audience (RFC 9068 §3 `aud`; RFC 8707 resource), never the issuer's API, so every
/// other endpoint refuses it by audience alone; the enrolment endpoints accept it only with `scope` and `amr`
/// exactly as the recovery grant mints them. It carries no refresh token.
enum RecoveryToken {
    /// `scope` (RFC 6749 §3.3) of the token.
    static let scope = "enroll:passkey"
    /// Lifetime in seconds (ten minutes).
    static let lifetime = 600
    /// `amr` (RFC 8176 §2 `otp`: a one-time code).
    static let authenticationMethods = ["otp"]

    /// The token's audience: `<issuer>recovery` (the issuer ends with `/`).
    static func audience(issuer: String) -> String { issuer + "recovery" }
}

/// The recovery throttle (`SRPThrottle` over the store's fallback counters, spelled by `FallbackCounterKey`): one per
/// realm and identifier, known or not (so that the answers do not tell), and one per client address.
enum RecoveryThrottleKeys {
    /// Most failures before an identifier's recovery locks (`srp.max_failures` when smaller).
    static let maximumFailures = 5

    /// The identifier counters of `user` (removed with the account).
    static func userKeys(_ user: User) -> [String] {
        user.identifiers.map { FallbackCounterKey.recoveryIdentifier(realm: user.realm, identifier: $0.value) }
    }
}
