import HTTP
import JSON
import Service

extension PasswordFallbackEndpoints {
    /// `POST /me/password-verifier` `{identity, salt, verifier}` (Bearer, for the account API `<issuer>me/`) → 204.
    ///
    /// Needs a fresh user-verified passkey login (`PasswordVerifierEnrolment`, `srp.fresh_login_max_age_seconds`),
    /// for the first verifier and for a replacement alike, checked before the body is read. `identity` must be one of
    /// the user's identifiers; `salt` exactly 16 bytes (`PasswordFallback.Salt`); `verifier` in 1..<N. The answer
    /// says nothing about the verifier, and no endpoint ever returns it.
    package func storeVerifier(_ request: Request) async throws -> Response {
        let subject = try await context.tokens.authenticate(request, audience: context.tokens.accountAudience)
        try EndpointHandler.checkUserRateLimit(subject, context: context)
        let enrolment = try PasswordVerifierEnrolment(context: context, subject: subject)
        let body = try request.jsonValue()
        guard body.objectMembers != nil else {
            throw OAuthError(.invalidRequest, "The request body must be a JSON object.", logCode: "body_not_object")
        }
        let parameters = RequestParameters(values: body.objectValue ?? [:])
        let identity = try parameters.string("identity", maxLength: PasswordFallback.maximumIdentityLength)
        let salt = try PasswordFallback.Salt(try Self.bytes(parameters, "salt", maxLength: 128))
        let verifier = try PasswordFallback.GroupElement.verifier(
            try Self.bytes(parameters, "verifier", maxLength: PasswordFallback.maximumGroupElementLength))
        _ = try await enrolment.store(identity: identity, salt: salt, verifier: verifier)
        return .empty()
    }
}
