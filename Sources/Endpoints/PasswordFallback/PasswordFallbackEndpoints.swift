import Crypto
import HTTP
import Service

/// The SRP-6a password fallback (docs/password-fallback.md): the password never reaches the server. Each endpoint
/// reads its request into checked values and runs one flow of `Service` (`Service/Flows/PasswordFallback`).
///
/// - `POST /me/password-verifier` (`+Enrolment`): a freshly signed-in user stores `{identity, salt, verifier}`
///   (`PasswordVerifierEnrolment`).
/// - `POST /srp/challenge` (`+Challenge`): `{client_id, realm?, identity, A}` → `{salt, B, auth_session}`
///   (`SRPChallenge`).
/// - `POST /oauth/token` with `ClientConfiguration.srpGrant` finishes the login (`TokenEndpoint+SRPGrant`,
///   `SRPLogin`).
package struct PasswordFallbackEndpoints: Sendable {
    package let context: ServerContext

    package static func register(in router: inout Router, context: ServerContext) {
        let endpoints = PasswordFallbackEndpoints(context: context)
        router.add(
            .post, "/me/password-verifier",
            EndpointHandler.make(context, rateLimited: true) { try await endpoints.storeVerifier($0) })
        router.add(
            .post, "/srp/challenge",
            EndpointHandler.make(context, rateLimited: true) { try await endpoints.challenge($0) })
    }

    /// The bytes of the base64url parameter `name` (at most `maxLength` characters).
    /// - Throws: 400 `invalid_request` when it is missing, too long or not base64url.
    package static func bytes(_ parameters: RequestParameters, _ name: String, maxLength: Int) throws -> [UInt8] {
        guard let bytes = Base64URL.decode(try parameters.string(name, maxLength: maxLength)) else {
            throw OAuthError.notBase64URL(name)
        }
        return bytes
    }
}
