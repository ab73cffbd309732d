import Configuration
import Foundation

// How recent a login must be, for each change that asks: one home for the windows (fed by the configuration) and
// for the answer when a token's login is not recent enough. Every endpoint that needs a fresh login builds its
// requirement here (`init(for:in:)`); `check` is the rule itself.
extension FreshLoginRequirement {
    /// What asks for a fresh login; each has its window (`maxAge(for:in:)`).
    package enum Purpose: Sendable, Equatable, CaseIterable {
        /// Enrolling or replacing the password verifier (`POST /me/password-verifier`):
        /// `srp.fresh_login_max_age_seconds`.
        case passwordVerifier
        /// Enrolling or replacing a device key: `device_keys.enrolment_max_age_seconds`.
        case deviceKeyEnrolment
        /// Proving a device through its user (`DeviceProof.freshLogin`: revoking a key, reporting its invalidation or
        /// the biometric failure that locks it): `device_keys.enrolment_max_age_seconds`, as for its enrolment.
        case deviceProof
        /// Adding or removing a passkey, recovery codes, deleting the account (`/me/…`): `accountChangeMaxAge`.
        case accountChange
    }

    /// The window of account changes, in seconds: five minutes, not configurable.
    package static let accountChangeMaxAge = 300

    /// The window of `purpose` under `configuration`, in seconds (what `max_age` and the refusals name).
    package static func maxAge(for purpose: Purpose, in configuration: ServerConfiguration) -> Int {
        switch purpose {
        case .passwordVerifier: configuration.srp.freshLoginMaxAgeSeconds
        case .deviceKeyEnrolment, .deviceProof: configuration.deviceKeys.enrolmentMaxAgeSeconds
        case .accountChange: accountChangeMaxAge
        }
    }

    /// The requirement of `purpose` under `configuration`: a user-verified passkey login within its window.
    package init(for purpose: Purpose, in configuration: ServerConfiguration) {
        self.init(maxAge: TimeInterval(Self.maxAge(for: purpose, in: configuration)))
    }

    /// The RFC 9470 step-up refusal of `subject` at `now` for `change` ("Setting the password"): 401
    /// `insufficient_user_authentication` with `max_age`, its log code saying which part of the rule failed; nil
    /// when the login is recent enough.
    package func stepUpRefusal(_ subject: AuthenticatedSubject, now: Date, change: String) -> OAuthError? {
        guard case .failure(let refusal) = check(subject, now: now) else { return nil }
        return OAuthError.enrolmentNeedsFreshLogin(refusal, maxAge: Int(maxAge), change: change)
    }

    /// Whether `subject` logged in after `instant` with a user-verified passkey (unlocking a device key locked at
    /// `instant`): no window, but the same methods. `auth_time` is whole seconds (RFC 7519 NumericDate), compared
    /// strictly, so a login made before the instant — even within its second — never qualifies.
    package static func isLogin(of subject: AuthenticatedSubject, after instant: Date) -> Bool {
        guard let authTime = subject.authTime, authTime > instant else { return false }
        return subject.authenticationMethods.contains(where: passkeyMethods.contains)
    }
}
