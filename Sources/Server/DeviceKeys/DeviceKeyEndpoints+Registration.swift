import Crypto
import DeviceKeys
import Foundation
import HTTP
import Storage

extension DeviceKeyEndpoints {
    /// The platforms whose key formats we document (the format itself decides how the key is read).
    static let platforms: Set<String> = ["ios", "android"]
    /// Longest `device_id` accepted, in bytes.
    static let maximumDeviceIDLength = 128
    /// Longest `public_key` text accepted: an SPKI of P-256 is 91 bytes, 122 characters in base64url.
    static let maximumPublicKeyLength = 1024

    /// `POST /device-keys` `{device_id, platform, public_key}` → 201 `{key_id, device_id, platform, status,
    /// created_at}`. A key for a `device_id` that already has one revokes the old one (re-enrolment); a new
    /// device beyond `device_keys.max_keys_per_user` usable keys is refused (409 `device_key_limit_reached`).
    func registerKey(_ request: Request) async throws -> Response {
        let subject = try await authenticate(request)
        try await requireLoginAfterBiometryChange(subject)
        let parameters = Self.parameters(try Self.bodyObject(request))
        let deviceID = try parameters.string("device_id", maxLength: Self.maximumDeviceIDLength)
        let platform = try parameters.string("platform", maxLength: 16)
        guard Self.platforms.contains(platform) else {
            throw OAuthError(
                .invalidRequest, "Invalid parameter: platform must be \"ios\" or \"android\".",
                logCode: "invalid_platform", reason: String(platform.prefix(16)))
        }
        let encodedKey = try parameters.string("public_key", maxLength: Self.maximumPublicKeyLength)
        guard let keyBytes = Base64URL.decode(encodedKey) else {
            throw OAuthError(
                .invalidRequest, "Invalid public_key: not base64url.", logCode: "public_key_not_base64url")
        }
        // The key is the X9.62 point iOS exports or the SPKI Android exports, P-256 only; a refusal names the reason.
        let publicKey: DevicePublicKey
        do {
            publicKey = try DevicePublicKey(importing: keyBytes)
        } catch {
            throw OAuthError.deviceKey(error)
        }
        let now = context.clock.now()
        let key = DeviceKey(
            keyID: try TokenService.randomIdentifier(), userID: subject.sub, deviceID: deviceID, platform: platform,
            publicKey: publicKey.spkiDERRepresentation, createdAt: now)
        let maximumKeys = context.configuration.deviceKeys.maxKeysPerUser
        try await context.store.write { writer in
            // At most `device_keys.max_keys_per_user` usable keys per user, counted in the insert's transaction so
            // that concurrent enrolments cannot pass it together. The device's own keys are left out: a
            // re-enrolment replaces them.
            guard try writer.countActiveDeviceKeys(userID: subject.sub, excludingDeviceID: deviceID) < maximumKeys
            else { throw OAuthError.deviceKeyLimitReached(maximumKeys) }
            // Storage revokes the device's previous keys in the same transaction (re-enrolment after a biometry
            // change: the old Secure Enclave / Keystore key is gone anyway).
            let replaced = try writer.insertDeviceKey(key)
            // The replacement after a biometry change is enrolled: the mark has done its work.
            _ = try writer.resetFallbackCounters(keys: [PasswordFallback.biometryChangedMark(userID: subject.sub)])
            _ = try writer.appendSecurityEvent(
                DeviceKeyAuditEvent.make(
                    DeviceKeyAuditEvent.registered, outcome: DeviceKeyAuditEvent.success, now: now, subject: subject,
                    keyID: key.keyID, deviceID: deviceID,
                    detail: [JSONMember(key: "platform", value: .string(platform))]))
            for oldKeyID in replaced {
                _ = try writer.appendSecurityEvent(
                    DeviceKeyAuditEvent.make(
                        DeviceKeyAuditEvent.revoked, outcome: DeviceKeyAuditEvent.success, now: now, subject: subject,
                        keyID: oldKeyID, deviceID: deviceID, reasonCode: "replaced",
                        detail: [JSONMember(key: "replaced_by", value: .string(key.keyID))]))
            }
        }
        context.metrics.count(event: "device_key:registered")
        let body: JSONValue = [
            "key_id": .string(key.keyID), "device_id": .string(deviceID), "platform": .string(platform),
            "status": .string(key.status.rawValue), "created_at": DeviceKeyRepresentation.timestamp(now),
        ]
        return .json(body, status: 201)
    }

    /// `GET /device-keys` → `{keys: [...]}`: the caller's keys only, oldest first, every status.
    func listKeys(_ request: Request) async throws -> Response {
        let subject = try await authenticate(request)
        let keys = try await context.store.read { try $0.deviceKeys(userID: subject.sub) }
        let body: JSONValue = ["keys": .array(keys.map(DeviceKeyRepresentation.json))]
        return .json(body)
    }

    /// `DELETE /device-keys/{key_id}` → 204. Revoking a revoked key is a no-op 204; another user's key is 404.
    func revokeKey(_ request: Request) async throws -> Response {
        let subject = try await authenticate(request)
        let key = try await ownedKey(request, subject: subject, kind: DeviceKeyAuditEvent.revoked)
        guard key.status != .revoked else { return .empty() }
        let now = context.clock.now()
        try await context.store.write { writer in
            var state = key.state
            state.status = .revoked
            state.revokedAt = now
            _ = try writer.updateDeviceKeyState(keyID: key.keyID, userID: subject.sub, state: state)
            _ = try writer.appendSecurityEvent(
                DeviceKeyAuditEvent.make(
                    DeviceKeyAuditEvent.revoked, outcome: DeviceKeyAuditEvent.success, now: now, subject: subject,
                    keyID: key.keyID, deviceID: key.deviceID, reasonCode: "deleted"))
        }
        context.metrics.count(event: "device_key:revoked")
        return .empty()
    }
}
