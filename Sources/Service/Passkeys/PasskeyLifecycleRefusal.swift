// The passkey-lifecycle and recovery answers of `OAuthError` (their `error` values are `OAuthError.Kind` cases).
// One fixed `error_description` per situation; the reason goes to the log only.
package enum PasskeyLifecycleRefusal {
    /// What a removal found, decided inside its write.
    package enum Removal: Sendable {
        case removed
        case notFound
        case last
    }

    /// No passkey with that id belongs to the user (someone else's is not found either).
    package static let passkeyNotFound = OAuthError(.notFound, "No such passkey.", logCode: "passkey_not_found")

    /// The passkey is the user's only way in.
    package static let lastPasskey = OAuthError(
        .lastPasskey,
        "This is your only passkey. Add another passkey, or generate recovery codes, before removing it.",
        logCode: "last_passkey")

    /// The recovery code did not verify (wrong, used, revoked, or an unknown identifier: never which).
    package static func recoveryNotVerified(_ logCode: String, reason: String = "") -> OAuthError {
        OAuthError(.invalidGrant, "The recovery code could not be verified.", logCode: logCode, reason: reason)
    }

    /// The recovery token has already added a passkey (single use, `RecoveryToken`): RFC 6750 §3.1 `invalid_token`.
    package static func recoveryTokenSpent(_ subject: AuthenticatedSubject) -> OAuthError {
        var refusal = OAuthError(
            .invalidToken, "The recovery token has already been used to add a passkey.",
            logCode: "recovery_token_spent", reason: "jti \(subject.tokenID) spent")
        // RFC 9449 §7.1: a DPoP-bound token's request is answered with a DPoP challenge.
        if subject.dpopThumbprint != nil { refusal.resourceScheme = .dpop }
        return refusal
    }

    /// Too many failed recovery attempts for this identifier: locked for `retryAfter` seconds more, or until a
    /// passkey login.
    package static func recoveryLocked(retryAfter: Int) -> OAuthError {
        OAuthError(
            .recoveryLocked, "Too many failed recovery attempts. Try again later, or contact support.",
            logCode: "recovery_locked", retryAfter: retryAfter)
    }

    /// An attempt within the delay the earlier failures earned.
    package static func recoveryDelayed(retryAfter: Int) -> OAuthError {
        OAuthError(
            .tooManyRequests, "Too many failed recovery attempts. Try again later.", logCode: "recovery_delayed",
            retryAfter: retryAfter)
    }
}
