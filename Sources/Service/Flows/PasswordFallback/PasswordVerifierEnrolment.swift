import Foundation
import Storage

/// The flow of `POST /me/password-verifier`: a freshly signed-in user stores `{identity, salt, verifier}`, for the
/// first verifier and for a replacement alike (docs/password-fallback.md, "Enrolment").
///
/// Made for a subject whose login is fresh (`FreshLoginRequirement.Purpose.passwordVerifier`), checked
/// before the request's body is read. The identity must be one of the user's identifiers (the client hashed it into
/// x); the verifier is sealed at rest and never returned by any endpoint.
package struct PasswordVerifierEnrolment: Sendable {
    package let context: ServerContext
    /// The signed-in user, from an access token for the account API.
    package let subject: AuthenticatedSubject
    /// When the enrolment was asked for.
    package let now: Date

    /// Whether the user had a verifier before.
    package enum Outcome: Sendable, Equatable {
        case enrolled
        case replaced
    }

    /// The enrolment of `subject`'s verifier.
    /// - Throws: 401 `insufficient_user_authentication` (RFC 9470, with `max_age`) without a fresh user-verified
    ///   passkey login.
    package init(context: ServerContext, subject: AuthenticatedSubject) throws {
        self.context = context
        self.subject = subject
        now = context.clock.now()
        // RFC 9470: 401 insufficient_user_authentication with max_age, as for a device-key enrolment.
        let requirement = FreshLoginRequirement(for: .passwordVerifier, in: context.configuration)
        if let refusal = requirement.stepUpRefusal(subject, now: now, change: "Setting the password") { throw refusal }
    }

    /// Stores the verifier (replacing the user's one, if any) and records it in the audit log.
    /// - Throws: 401 `invalid_token` when the user is gone, 400 `invalid_request` when `identity` is not one of the
    ///   user's identifiers.
    package func store(identity: String, salt: PasswordFallback.Salt, verifier: PasswordFallback.GroupElement)
        async throws -> Outcome
    {
        let width = try PasswordFallback.srp().width
        let keys = try context.secrets.get()
        let (subject, now) = (subject, now)
        let replaced = try await context.store.write { writer -> Bool in
            guard let user = try writer.user(id: subject.sub) else {
                throw OAuthError(.invalidToken, "The access token's user no longer exists.", logCode: "user_gone")
            }
            // x = H(s | H(I ":" P)) binds I: it must be what the user signs in with, so that /srp/challenge finds it.
            guard user.identifiers.contains(where: { $0.value == identity }) else {
                throw OAuthError(
                    .invalidRequest, "Invalid identity: not one of this user's identifiers.",
                    logCode: "identity_not_users")
            }
            let replaced = try writer.passwordVerifier(userID: user.id) != nil
            try writer.storePasswordVerifier(
                PasswordVerifier(
                    userID: user.id, realm: user.realm, identity: identity, salt: salt.bytes,
                    // Sealed at rest with a key-encryption key (SecretEncryptionKeys+PasswordVerifier).
                    verifier: try keys.storedVerifier(verifier.bytes, boundTo: .user(user.id), width: width),
                    updatedAt: now))
            _ = try writer.appendSecurityEvent(
                PasswordFallbackAuditEvent.make(
                    .passwordVerifierStored, outcome: "success", now: now, userID: user.id,
                    clientID: subject.clientID, reasonCode: replaced ? "replaced" : "enrolled"))
            return replaced
        }
        context.metrics.count(event: replaced ? "password_verifier:replaced" : "password_verifier:enrolled")
        return replaced ? .replaced : .enrolled
    }
}
