import Crypto
import DeviceKeys
import Foundation
import HTTP
import JSON
import Service
import Storage

extension DeviceKeyEndpoints {
    /// The platforms whose key formats we document (the format itself decides how the key is read).
    package static let platforms: Set<String> = ["ios", "android"]
    /// Longest `device_id` accepted, in bytes.
    package static let maximumDeviceIDLength = 128
    /// Longest `public_key` text accepted: an SPKI of P-256 is 91 bytes, 122 characters in base64url.
    package static let maximumPublicKeyLength = 1024

    /// `POST /device-keys` `{device_id, platform, public_key, attestation?, enrolment_nonce?}` → 201 `{key_id,
    /// device_id, platform, status, created_at, attestation}`. A key for a `device_id` that already has one revokes
    /// the old one (re-enrolment); a new device beyond `device_keys.max_keys_per_user` usable keys is refused (409
    /// `device_key_limit_reached`).
    ///
    /// Enrolling needs the step-up (`requireEnrolmentStepUp`): a stolen refresh token, a password login, or a token
    /// for another API cannot enrol a key. The client's `device_keys.attestation` policy decides whether a platform
    /// attestation is verified or required (`verifiedAttestation`). An enrolment made with a DPoP-bound token binds
    /// the key to that DPoP key (`DeviceKey.dpopThumbprint`): a later proof by it is proof of the device
    /// (`DeviceProof`).
    package func registerKey(_ request: Request) async throws -> Response {
        let subject = try await authenticateForEnrolment(request)
        let body = try Self.bodyObject(request)
        let parameters = Self.parameters(body)
        let deviceID = try parameters.string("device_id", maxLength: Self.maximumDeviceIDLength)
        try await requireEnrolmentStepUp(subject, deviceID: deviceID)
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
        let attestation: VerifiedPlatformAttestation?
        do {
            attestation = try await verifiedAttestation(
                body, platform: platform, publicKey: publicKey, subject: subject, now: now)
        } catch let refusal as OAuthError where refusal.kind == .invalidAttestation {
            try await record(
                DeviceKeyAuditEvent.refusal(
                    DeviceKeyAuditEvent.registered, refusal, now: now, subject: subject, keyID: nil,
                    deviceID: deviceID, detail: [JSONMember(key: "platform", value: .string(platform))]))
            throw refusal
        }
        let key = DeviceKey(
            keyID: try TokenService.randomIdentifier(), userID: subject.sub, deviceID: deviceID, platform: platform,
            publicKey: publicKey.spkiDERRepresentation, createdAt: now,
            attestation: attestation.map {
                DeviceKeyAttestation(
                    platform: $0.platform, level: $0.level, verifiedAt: now, verifiedBootState: $0.verifiedBootState)
            }, dpopThumbprint: subject.dpopThumbprint)
        let maximumKeys = context.configuration.deviceKeys.maxKeysPerUser
        try await context.store.write { writer in
            // At most `device_keys.max_keys_per_user` usable keys per user, counted in the insert's transaction so
            // that concurrent enrolments cannot pass it together. The device's own keys are left out: a
            // re-enrolment replaces them.
            guard try writer.countActiveDeviceKeys(userID: subject.sub, excludingDeviceID: deviceID) < maximumKeys
            else { throw OAuthError.deviceKeyLimitReached(maximumKeys) }
            var detail = [JSONMember(key: "platform", value: .string(platform))]
            if let attestation = key.attestation {
                detail.append(JSONMember(key: "attestation", value: DeviceKeyRepresentation.json(attestation)))
            }
            // Storage revokes the device's previous keys in the same transaction (re-enrolment after a biometry
            // change: the old Secure Enclave / Keystore key is gone anyway).
            let replaced = try writer.insertDeviceKey(key)
            _ = try writer.appendSecurityEvent(
                DeviceKeyAuditEvent.make(
                    DeviceKeyAuditEvent.registered, outcome: DeviceKeyAuditEvent.success, now: now, subject: subject,
                    keyID: key.keyID, deviceID: deviceID,
                    reasonCode: replaced.isEmpty ? "new_device" : "replacement", detail: detail))
            for oldKeyID in replaced {
                _ = try writer.appendSecurityEvent(
                    DeviceKeyAuditEvent.make(
                        DeviceKeyAuditEvent.revoked, outcome: DeviceKeyAuditEvent.success, now: now, subject: subject,
                        keyID: oldKeyID, deviceID: deviceID, reasonCode: "replaced",
                        detail: [JSONMember(key: "replaced_by", value: .string(key.keyID))]))
            }
        }
        context.metrics.count(event: "device_key:registered")
        let answer: JSONValue = [
            "key_id": .string(key.keyID), "device_id": .string(deviceID), "platform": .string(platform),
            "status": .string(key.status.rawValue), "created_at": RFC3339.timestamp(now),
            "attestation": key.attestation.map(DeviceKeyRepresentation.json) ?? .null,
        ]
        return .json(answer, status: 201)
    }

    /// How many of the newest enrolment events `GET /device-keys` lists.
    package static let historyLength = 50

    /// `GET /device-keys` → `{keys: [...], history: [...]}`: the caller's keys only, oldest first, every status;
    /// and the newest enrolments, replacements, revocations and refused enrolments, newest first, so that the app
    /// can tell the user "a new device was added".
    package func listKeys(_ request: Request) async throws -> Response {
        let subject = try await authenticate(request)
        let (keys, events) = try await context.store.read { reader in
            (
                try reader.deviceKeys(userID: subject.sub),
                try reader.securityEvents(userID: subject.sub, limit: Self.historyLength * 4)
            )
        }
        let kinds = [DeviceKeyAuditEvent.registered, DeviceKeyAuditEvent.revoked]
        let history = events.filter { kinds.contains($0.kind) }.prefix(Self.historyLength)
        let body: JSONValue = [
            "keys": .array(keys.map(DeviceKeyRepresentation.json)),
            "history": .array(history.map(DeviceKeyRepresentation.json)),
        ]
        return .json(body)
    }

    /// `DELETE /device-keys/{key_id}` (optional body `{device_proof: {challenge_id, signature}}`) → 204. Revoking
    /// a revoked key is a no-op 204; another user's key is 404. Revoking a live key needs proof of the device or a
    /// fresh user-verified passkey login (`DeviceProof`, 403 `device_proof_required` otherwise): a bare bearer token
    /// revokes nothing.
    package func revokeKey(_ request: Request) async throws -> Response {
        let subject = try await authenticate(request)
        let key = try await ownedKey(request, subject: subject, kind: DeviceKeyAuditEvent.revoked)
        guard key.status != .revoked else { return .empty() }
        let now = context.clock.now()
        let body = request.body.isEmpty ? nil : try Self.bodyObject(request)
        let proof = try presentedProof(subject, body: body, keys: [key], now: now)
        let refusal = try await context.store.write { writer -> OAuthError? in
            if let refusal = try proofRefusal(
                proof, operation: .revokeKey, keys: [key], subject: subject, writer: writer, now: now)
            {
                _ = try writer.appendSecurityEvent(
                    DeviceKeyAuditEvent.refusal(
                        DeviceKeyAuditEvent.revoked, refusal, now: now, subject: subject, keyID: key.keyID,
                        deviceID: key.deviceID))
                return refusal
            }
            var state = key.state
            state.status = .revoked
            state.revokedAt = now
            _ = try writer.updateDeviceKeyState(keyID: key.keyID, userID: subject.sub, state: state)
            _ = try writer.appendSecurityEvent(
                DeviceKeyAuditEvent.make(
                    DeviceKeyAuditEvent.revoked, outcome: DeviceKeyAuditEvent.success, now: now, subject: subject,
                    keyID: key.keyID, deviceID: key.deviceID, reasonCode: "deleted",
                    detail: [JSONMember(key: "proof", value: .string(proof?.name ?? ""))]))
            return nil
        }
        if let refusal { throw refusal }
        context.metrics.count(event: "device_key:revoked")
        return .empty()
    }
}
