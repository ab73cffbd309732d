import Crypto
import Foundation
import HTTP
import JSON
import Service
import Storage

/// The SRP-6a password fallback (docs/password-fallback.md): the password never reaches the server.
///
/// - `POST /me/password-verifier` (`+Enrolment`): a freshly signed-in user stores `{identity, salt, verifier}`.
/// - `POST /srp/challenge` (`+Challenge`): `{client_id, realm?, identity, A}` → `{salt, B, auth_session}`.
/// - `POST /oauth/token` with `ClientConfiguration.srpGrant` finishes the login (`TokenEndpoint+SRPGrant`).
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

    /// A group element (A or a verifier) from its base64url text: 400 when it is not base64url, longer than N,
    /// 0 mod N or not below N (RFC 5054 §2.5.4 for A).
    package static func groupElement(_ text: String, name: String, srp: SRP6a) throws -> [UInt8] {
        guard let bytes = Base64URL.decode(text) else { throw OAuthError.notBase64URL(name) }
        guard bytes.count <= srp.width else {
            throw OAuthError(
                .invalidRequest, "Invalid \(name): longer than the 3072-bit modulus.", logCode: "srp_value_too_long",
                reason: "\(name) of \(bytes.count) bytes")
        }
        do {
            try (name == "A" ? srp.checkClientPublic(bytes) : srp.checkVerifier(bytes))
        } catch {
            // RFC 5054 §2.5.4: A % N == 0 is refused; so is anything outside 1..<N.
            throw OAuthError(
                .invalidRequest, "Invalid \(name): must be between 1 and N − 1.", logCode: "srp_value_out_of_range",
                reason: error.reason)
        }
        return bytes
    }
}
