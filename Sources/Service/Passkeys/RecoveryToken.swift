import Configuration
import Foundation
import JSON
import Storage
import Tokens

/// The restricted access token of a recovery (`urn:passkeyd:params:oauth:grant-type:recovery-code`): its only
/// power is adding one passkey (`POST /me/passkeys/challenge`, `POST /me/passkeys`) within `lifetime`.
///
/// It is issued for its own audience (RFC 9068 §3 `aud`; RFC 8707 resource), never the issuer's API, so every
/// other endpoint refuses it by audience alone; the enrolment endpoints accept it only with `scope` and `amr`
/// exactly as the recovery grant mints them. It carries no refresh token.
///
/// Single use, as the code that bought it: the enrolment that adds a passkey spends its `jti` (RFC 7519 §4.1.7,
/// `StoreWriter.spendToken`) in the write that inserts the credential, so of concurrent enrolments on any nodes
/// exactly one adds a passkey; from then on both endpoints refuse it (401 `invalid_token`). A refused enrolment
/// (an attestation that does not verify, a wrong or used challenge, a credential id already registered) spends
/// nothing: the user may try again within `lifetime`. No further bound on attempts: whoever holds the token can
/// add one passkey of their choice anyway, so retries give no more power; each needs a fresh single-use
/// challenge and counts against the per-user rate limit.
package enum RecoveryToken {
    /// `scope` (RFC 6749 §3.3) of the token.
    package static let scope = "enroll:passkey"
    /// Lifetime in seconds (ten minutes).
    package static let lifetime = 600
    /// `amr` (RFC 8176 §2 `otp`: a one-time code).
    package static let authenticationMethods = ["otp"]

    /// The token's audience: `<issuer>recovery` (`ServerConfiguration.recoveryAudience`).
    package static func audience(issuer: String) -> String { ServerConfiguration.recoveryAudience(issuer: issuer) }

    /// What the token is minted for, as the token service mints any access token (`TokenService.tokenResponse`):
    /// an API of its own (not configurable, never offered to a login) whose one scope is `scope`, signed with
    /// `algorithm` (`tokens.access_token_signing_alg`, as the other built-in APIs), no refresh token, and `scope` alone
    /// granted, so no ID token.
    package static func access(issuer: String, algorithm: TokenSigningAlgorithm) -> AuthorizedAccess {
        let api = APIConfiguration(
            identifier: audience(issuer: issuer), name: "passkeyd recovery",
            scopes: [APIConfiguration.Scope(value: scope, description: "Add one passkey after account recovery")],
            accessTokenLifetime: lifetime, signingAlgorithm: algorithm, allowsOfflineAccess: false)
        return AuthorizedAccess(api: api, scope: Scope.only(scope))
    }

    /// Until when a token minted at `issuedAt` must stay spent: its `exp` plus the verifier's clock leeway, after
    /// which the verifier refuses it anyway and housekeeping may forget it.
    package static func spentUntil(issuedAt: Date) -> Date {
        issuedAt.addingTimeInterval(TimeInterval(lifetime) + JWTVerifier.Configuration().leeway)
    }

    /// The security-event detail naming the token (`{"recovery_token": jti}`), on the recovery that minted it and
    /// on the enrolment that spent it, so the audit log links the code, the token and the passkey.
    package static func eventDetail(jwtID: String) -> [UInt8] {
        JSONValue.object([JSONMember(key: "recovery_token", value: .string(jwtID))]).serialized()
    }
}

/// The recovery throttle (`SRPThrottle` over the store's fallback counters, spelled by `FallbackCounterKey`): one per
/// realm and identifier, known or not (so that the answers do not tell), and one per client network. A user's
/// identifier counters are among `FallbackCounterKey.identityLocks`.
package enum RecoveryThrottleKeys {
    /// Most failures before an identifier's recovery locks (`srp.max_failures` when smaller).
    package static let maximumFailures = 5
}
