import Foundation
import HTTP
import JSON
import Service
import Storage

/// The app-bound device-key endpoints (DESIGN.md and docs/device-keys.md). Every call needs a Bearer
/// access token; a key belongs to the token's subject and no one else can see or use it — another user's key
/// id is answered exactly like an unknown one (404).
///
/// - `POST /device-keys`, `GET /device-keys`, `DELETE /device-keys/{key_id}` (`+Registration`)
/// - `POST /device-keys/enrolment-challenge` and the enrolment step-up and attestation (`+Enrolment`)
/// - `POST /device-keys/{key_id}/challenges` (`+Challenges`)
/// - `POST /device-keys/{key_id}/approvals` (`+Approvals`)
/// - `POST /device-keys/{key_id}/unlock` (`+Unlock`)
/// - `POST /device-events` (`+Events`)
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

    /// The caller: the Bearer access token's subject (RFC 6750), counted against the per-user request limit
    /// (`rate_limit.requests_per_user_per_minute`), so one user's token cannot flood the store from many
    /// addresses. Only a token issued for the device-key API (`aud` containing `device_keys.audience`, RFC 9068
    /// §4) is accepted, not any token of this issuer; and never a password login's (`PasswordLogin`), whatever its
    /// audience: the password alone never enrols, re-enables or uses a device key (401
    /// `insufficient_user_authentication`, recorded).
    package func authenticate(_ request: Request) async throws -> AuthenticatedSubject {
        let subject = try await context.tokens.authenticate(request, audience: context.tokens.deviceKeyAudience)
        try EndpointHandler.checkUserRateLimit(subject, context: context)
        if PasswordLogin.isPasswordLogin(subject.authenticationMethods) {
            let refusal = OAuthError(
                .insufficientUserAuthentication, "Device keys need a passkey login; a password login cannot use them.",
                logCode: "password_login_for_device_keys")
            try await record(
                DeviceKeyAuditEvent.refusal(
                    "device_key_request", refusal, now: context.clock.now(), subject: subject, keyID: nil,
                    detail: [JSONMember(key: "route", value: .string(request.route ?? request.path))]))
            throw refusal
        }
        return subject
    }

    /// Longest key id accepted in a path; ours are 22 characters (16 random bytes, base64url).
    package static let maximumKeyIDLength = 64

    /// The `{key_id}` path parameter, when it could be one of our ids at all.
    package static func keyID(of request: Request) -> String? {
        guard let text = request.pathParameters["key_id"], !text.isEmpty, text.utf8.count <= maximumKeyIDLength,
            Base64URLText.isAlphabet(text)
        else { return nil }
        return text
    }

    /// The caller's key named by the path, or 404 `not_found` (recorded as a refusal of `kind`) when the id is
    /// malformed, unknown or another user's: the three are indistinguishable on the wire.
    package func ownedKey(_ request: Request, subject: AuthenticatedSubject, kind: String) async throws -> DeviceKey {
        let raw = request.pathParameters["key_id"] ?? ""
        if let keyID = Self.keyID(of: request),
            let key = try await context.store.read({ try $0.deviceKey(id: keyID, userID: subject.sub) })
        {
            return key
        }
        let refusal = OAuthError.deviceKeyNotFound(raw)
        try await record(
            DeviceKeyAuditEvent.refusal(
                kind, refusal, now: context.clock.now(), subject: subject,
                keyID: String(raw.prefix(Self.maximumKeyIDLength))))
        throw refusal
    }

    /// Refuses a revoked or locked key for `kind`, recording the refusal.
    package func requireActive(_ key: DeviceKey, subject: AuthenticatedSubject, kind: String) async throws {
        let refusal: OAuthError
        switch key.status {
        case .active: return
        case .locked: refusal = .deviceKeyLocked
        case .revoked: refusal = .deviceKeyRevoked
        }
        try await record(
            DeviceKeyAuditEvent.refusal(
                kind, refusal, now: context.clock.now(), subject: subject, keyID: key.keyID, deviceID: key.deviceID))
        throw refusal
    }

    /// Appends `events` in one write transaction.
    package func record(_ events: SecurityEvent...) async throws {
        try await context.store.write { writer in
            for event in events { _ = try writer.appendSecurityEvent(event) }
        }
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
