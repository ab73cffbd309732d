import Foundation
import HTTP
import Storage

extension DeviceKeyEndpoints {
    /// After a biometry change (`key_invalidated`), enrolling the replacement key needs a recent login — the
    /// password (SRP, `amr` `pwd`) or a user-verified passkey — within `srp.fresh_login_max_age_seconds`, not
    /// merely a valid access token (`FreshLoginRequirement`). Without the mark, nothing is asked here.
    func requireLoginAfterBiometryChange(_ subject: AuthenticatedSubject) async throws {
        let mark = PasswordFallback.biometryChangedMark(userID: subject.sub)
        guard try await context.store.read({ try $0.fallbackCounter(key: mark) }) != nil else { return }
        let now = context.clock.now()
        let rule = FreshLoginRequirement(
            maxAge: TimeInterval(context.configuration.srp.freshLoginMaxAgeSeconds), acceptedMethods: ["user", "pwd"])
        guard case .failure(let refusal) = rule.check(subject, now: now) else { return }
        let error = OAuthError.freshLoginRequired(refusal, logCode: "biometry_changed_needs_login")
        try await record(
            DeviceKeyAuditEvent.refusal(
                DeviceKeyAuditEvent.registered, error, now: now, subject: subject, keyID: nil,
                detail: [JSONMember(key: "refusal", value: .string(refusal.rawValue))]))
        throw error
    }
}
