import Storage
import Tokens

/// Why `RefreshGrant` refused a refresh: the decision itself, from which the answer (`error`), the audit event's kind
/// (`auditKind`) and the reuse metric are derived, so that nothing reads a decision back out of a log code.
package enum RefreshRefusal: Sendable {
    /// No stored token has the presented token's hash.
    case unknownToken
    /// The token was issued to another client (RFC 6749 §6).
    case otherClient
    /// The policy's verdict: the token's family was revoked.
    case revoked
    /// The policy's verdict: the token's idle or absolute lifetime is over.
    case expired
    /// The policy's verdict: the token was rotated before, and its whole family is now revoked (RFC 9700 §4.14.2).
    case reused
    /// The token's user no longer exists.
    case userGone
    /// A check of the request refused it (`scope`, `audience`, the DPoP binding): `error` is what the check threw.
    case request(OAuthError)

    /// The refusal of a policy decision; `nil` for `.rotate` and `.retry`.
    package init?(_ decision: RefreshTokenPolicy.Decision) {
        switch decision {
        case .rotate, .retry: return nil
        case .revoked: self = .revoked
        case .expired: self = .expired
        case .reuseDetected: self = .reused
        }
    }

    /// The answer: `invalid_grant` for the token itself (one description, the log code names the reason), or the
    /// request check's own error.
    package var error: OAuthError {
        switch self {
        case .unknownToken: .invalidRefreshToken("refresh_unknown")
        case .otherClient: .invalidRefreshToken("refresh_other_client")
        case .revoked: .invalidRefreshToken("refresh_revoked")
        case .expired: .invalidRefreshToken("refresh_expired")
        case .reused: .invalidRefreshToken("refresh_reused")
        case .userGone: .invalidRefreshToken("refresh_user_gone")
        case .request(let error): error
        }
    }

    /// Whether the refusal revoked the token's family: a reuse, counted (`refresh_token_reuse`) and audited as such.
    package var revokedFamily: Bool {
        if case .reused = self { return true }
        return false
    }

    /// The kind of the audit event (docs/audit.md): `refresh_reuse` for a reuse, `refresh` for any other refusal.
    package var auditKind: SecurityEvent.Kind { revokedFamily ? .refreshReuse : .refresh }
}
