import Foundation
import JSON

/// The caller of a device-key flow: the subject of an access token for the device-key API that `admit` let in.
///
/// Only `admit` makes one, so no device-key flow runs for a password login.
package struct DeviceKeyCaller: Sendable {
    /// The access token's subject.
    package let subject: AuthenticatedSubject

    private init(subject: AuthenticatedSubject) {
        self.subject = subject
    }

    /// Admits `subject`, the subject of a token the token service accepted for the device-key API (`aud` containing
    /// `device_keys.audience`, RFC 9068 §4) — but never a password login's (`PasswordLogin`), whatever its
    /// audience: the password alone never enrols, re-enables or uses a device key (401
    /// `insufficient_user_authentication`, recorded with the `route` asked for).
    package static func admit(_ subject: AuthenticatedSubject, route: String, context: ServerContext) async throws
        -> DeviceKeyCaller
    {
        if PasswordLogin.isPasswordLogin(subject.authenticationMethods) {
            let refusal = OAuthError(
                .insufficientUserAuthentication, "Device keys need a passkey login; a password login cannot use them.",
                logCode: "password_login_for_device_keys")
            try await DeviceKeyAccess(context: context).record(
                DeviceKeyAuditEvent.refusal(
                    .deviceKeyRequest, refusal, now: context.clock.now(), subject: subject, keyID: nil,
                    detail: [JSONMember(key: "route", value: .string(route))]))
            throw refusal
        }
        return DeviceKeyCaller(subject: subject)
    }
}
