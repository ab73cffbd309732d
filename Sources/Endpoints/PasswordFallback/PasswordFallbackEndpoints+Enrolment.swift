import Crypto
import Foundation
import HTTP
import JSON
import Service
import Storage

extension PasswordFallbackEndpoints {
    /// `POST /me/password-verifier` `{identity, salt, verifier}` (Bearer, for the account API `<issuer>me/`) → 204.
    ///
    /// Needs a fresh user-verified passkey login (`FreshLoginRequirement`, `srp.fresh_login_max_age_seconds`), for
    /// the first verifier and for a replacement alike. `identity` must be one of the user's identifiers (the client
    /// hashed it into x); `salt` exactly 16 bytes (`PasswordFallback.saltLength`); `verifier` in 1..<N. The answer
    /// says nothing about the verifier, and no endpoint ever returns it.
    package func storeVerifier(_ request: Request) async throws -> Response {
        let subject = try await context.tokens.authenticate(request, audience: context.tokens.accountAudience)
        try EndpointHandler.checkUserRateLimit(subject, context: context)
        let now = context.clock.now()
        let maxAge = context.configuration.srp.freshLoginMaxAgeSeconds
        if case .failure(let refusal) = FreshLoginRequirement(maxAge: TimeInterval(maxAge)).check(subject, now: now) {
            // RFC 9470: 401 insufficient_user_authentication with max_age, as for a device-key enrolment.
            throw OAuthError.enrolmentNeedsFreshLogin(refusal, maxAge: maxAge, change: "Setting the password")
        }
        let body = try request.jsonValue()
        guard body.objectMembers != nil else {
            throw OAuthError(.invalidRequest, "The request body must be a JSON object.", logCode: "body_not_object")
        }
        let parameters = RequestParameters(values: body.objectValue ?? [:])
        let srp = try PasswordFallback.srp()
        let identity = try parameters.string("identity", maxLength: PasswordFallback.maximumIdentityLength)
        let saltText = try parameters.string("salt", maxLength: 128)
        guard let salt = Base64URL.decode(saltText) else { throw OAuthError.notBase64URL("salt") }
        // Exactly the stand-in salt's length: a salt of another length would mark the identity as enrolled.
        guard salt.count == PasswordFallback.saltLength else {
            throw OAuthError(
                .invalidRequest, "Invalid salt: must be \(PasswordFallback.saltLength) bytes.", logCode: "salt_length",
                reason: "\(salt.count) bytes")
        }
        let verifier = try Self.groupElement(
            try parameters.string("verifier", maxLength: PasswordFallback.maximumGroupElementLength), name: "verifier",
            srp: srp)
        let keys = try context.secrets.get()
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
                    userID: user.id, realm: user.realm, identity: identity, salt: salt,
                    // Sealed at rest with a key-encryption key (SecretEncryptionKeys+PasswordVerifier).
                    verifier: try keys.storedVerifier(verifier, boundTo: .user(user.id), width: srp.width),
                    updatedAt: now))
            _ = try writer.appendSecurityEvent(
                PasswordFallbackAuditEvent.make(
                    PasswordFallbackAuditEvent.verifierStored, outcome: "success", now: now, userID: user.id,
                    clientID: subject.clientID, reasonCode: replaced ? "replaced" : "enrolled"))
            return replaced
        }
        context.metrics.count(event: replaced ? "password_verifier:replaced" : "password_verifier:enrolled")
        return .empty()
    }
}
