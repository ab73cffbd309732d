// The password-fallback answers of `OAuthError` (their `error` values are `OAuthError.Kind` cases). One fixed
// `error_description` per situation; the reason goes to the log only.
extension OAuthError {
    /// The SRP proof did not verify (wrong password, unknown identity, or a tampered exchange: never which).
    package static func passwordNotVerified(_ logCode: String, reason: String = "") -> OAuthError {
        OAuthError(.invalidGrant, "The password could not be verified.", logCode: logCode, reason: reason)
    }

    /// Too many failed SRP logins for this identity: locked for `retryAfter` seconds more, or until a passkey login.
    package static func passwordLocked(retryAfter: Int) -> OAuthError {
        OAuthError(
            .passwordLocked, "Too many failed password attempts. Log in with a passkey, or try again later.",
            logCode: "srp_locked", retryAfter: retryAfter)
    }

    /// An attempt within the delay the earlier failures earned.
    package static func passwordDelayed(retryAfter: Int) -> OAuthError {
        OAuthError(
            .tooManyRequests, "Too many failed password attempts. Try again later.", logCode: "srp_delayed",
            retryAfter: retryAfter)
    }

    /// The device key's approvals wait for the password after repeated biometric failures.
    package static let passwordRequired = OAuthError(
        .passwordRequired, "Biometric unlock failed too often. Log in with the password (or a passkey) first.",
        logCode: "password_required")

    /// A binary parameter that is not base64url.
    package static func notBase64URL(_ name: String) -> OAuthError {
        OAuthError(.invalidRequest, "Invalid \(name): not base64url.", logCode: "\(name.lowercased())_not_base64url")
    }
}
