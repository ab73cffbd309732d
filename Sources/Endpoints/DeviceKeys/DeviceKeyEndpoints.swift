import Crypto
import HTTP
import JSON
import Service

/// The app-bound device-key endpoints (DESIGN.md and docs/device-keys.md). Each parses its request, calls one
/// device-key flow of `Service` (`Flows/DeviceKeys`) and renders what it returns. Every call needs a Bearer access
/// token; a key belongs to the token's subject and no one else can see or use it — another user's key id is
/// answered exactly like an unknown one (404, `DeviceKeyAccess`).
///
/// - `POST /device-keys`, `GET /device-keys`, `DELETE /device-keys/{key_id}` (`+Registration`)
/// - `POST /device-keys/enrolment-challenge` and the enrolment's token check (`+Enrolment`)
/// - `POST /device-keys/{key_id}/challenges` (`+Challenges`)
/// - `POST /device-keys/{key_id}/approvals` (`+Approvals`)
/// - `POST /device-keys/{key_id}/unlock` (`+Unlock`)
/// - `POST /device-events` (`+Events`), and the `device_proof` member (`+DeviceProof`)
package struct DeviceKeyEndpoints: Sendable {
    package let context: ServerContext

    package static func register(in router: inout Router, context: ServerContext) {
        let endpoints = DeviceKeyEndpoints(context: context)
        // Limited per client IP here, and per user once the token is read (`authenticate`).
        func handler(_ body: @escaping @Sendable (Request) async throws -> Response) -> Router.Handler {
            EndpointHandler.make(context, rateLimited: true, body)
        }
        router.add(.post, "/device-keys", handler { try await endpoints.registerKey($0) })
        router.add(
            .post, "/device-keys/enrolment-challenge", handler { try await endpoints.issueEnrolmentChallenge($0) })
        router.add(.get, "/device-keys", handler { try await endpoints.listKeys($0) })
        router.add(.delete, "/device-keys/{key_id}", handler { try await endpoints.revokeKey($0) })
        router.add(.post, "/device-keys/{key_id}/challenges", handler { try await endpoints.issueChallenge($0) })
        router.add(.post, "/device-keys/{key_id}/approvals", handler { try await endpoints.approve($0) })
        router.add(.post, "/device-keys/{key_id}/unlock", handler { try await endpoints.unlock($0) })
        router.add(.post, "/device-events", handler { try await endpoints.deviceEvent($0) })
    }

    /// The caller: the access token's subject (RFC 6750), which must be a token for the device-key API (`aud`
    /// containing `device_keys.audience`, RFC 9068 §4), counted against the per-user request limit
    /// (`rate_limit.requests_per_user_per_minute`), so one user's token cannot flood the store from many addresses,
    /// and admitted by `DeviceKeyCaller.admit` (never a password login).
    package func authenticate(_ request: Request) async throws -> DeviceKeyCaller {
        let subject = try await context.tokens.authenticate(request, audience: context.tokens.deviceKeyAudience)
        try EndpointHandler.checkUserRateLimit(subject, context: context)
        return try await DeviceKeyCaller.admit(subject, route: request.route ?? request.path, context: context)
    }

    /// The `{key_id}` path parameter as sent (empty when absent); the flows tell a malformed id from an unknown one
    /// no more than the wire does.
    package static func keyID(of request: Request) -> String {
        request.pathParameters["key_id"] ?? ""
    }

    /// Longest `signature` text accepted: a DER ECDSA P-256 signature is at most 72 bytes (96 characters).
    package static let maximumSignatureLength = 256

    /// `{challenge_id, signature}`: the device's signature over one of its challenges, base64url.
    package static func signedChallenge(_ parameters: RequestParameters) throws -> SignedChallenge {
        let challengeID = try parameters.string("challenge_id", maxLength: 64)
        let encoded = try parameters.string("signature", maxLength: maximumSignatureLength)
        guard let signature = Base64URL.decode(encoded) else {
            throw OAuthError(.invalidRequest, "Invalid signature: not base64url.", logCode: "signature_not_base64url")
        }
        return SignedChallenge(challengeID: challengeID, signature: signature)
    }

    /// The body as a JSON object (400 `invalid_request` otherwise).
    package static func bodyObject(_ request: Request) throws -> JSONValue {
        let body = try request.jsonValue()
        guard body.objectMembers != nil else {
            throw OAuthError(
                .invalidRequest, "The request body must be a JSON object.", logCode: "body_not_object")
        }
        return body
    }

    /// The top-level members of a JSON object body, read with the OAuth error for each way one can be wrong.
    package static func parameters(_ body: JSONValue) -> RequestParameters {
        RequestParameters(values: body.objectValue ?? [:])
    }
}
