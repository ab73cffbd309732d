import Crypto
import DeviceKeys
import Foundation
import JSON
import Storage
import Tokens

/// Enrolling a device key: the single-use enrolment nonce, and the enrolment itself behind the step-up, under the
/// client's attestation policy and the per-user key limit, a device's new key replacing its old one.
package struct DeviceKeyEnrolment: Sendable {
    package let context: ServerContext

    /// `POST /device-keys/enrolment-challenge` → `{nonce, expires_in}`: a single-use server nonce for one enrolment,
    /// stored for the caller. The app puts it in the platform attestation (Android `setAttestationChallenge(nonce
    /// bytes)`; App Attest client data) and sends it back as `enrolment_nonce`.
    package func issueNonce(for caller: DeviceKeyCaller) async throws -> JSONValue {
        let subject = caller.subject
        let now = context.clock.now()
        let lifetime = context.configuration.deviceKeys.challengeLifetimeSeconds
        let nonce = DeviceEnrolmentNonce(
            nonce: Base64URL.encode(try SecureRandom.bytes(count: 32)), userID: subject.sub,
            clientID: subject.clientID, createdAt: now, expiresAt: now.addingTimeInterval(TimeInterval(lifetime)))
        try await context.store.write { try $0.insertDeviceEnrolmentNonce(nonce) }
        return ["nonce": .string(nonce.nonce), "expires_in": JSONValue(lifetime)]
    }

    /// Records an enrolment refused by the device-key audience check (`error`) when the same token is otherwise a
    /// valid one of this issuer, for `subject`: a stolen token for another API shows in the user's history.
    package func recordForeignToken(_ subject: AuthenticatedSubject, error: TokenError) async throws {
        try await DeviceKeyAccess(context: context).record(
            DeviceKeyAuditEvent.refusal(
                .deviceKeyRegistered, .token(error), now: context.clock.now(), subject: subject, keyID: nil,
                detail: [JSONMember(key: "aud", value: .array(subject.audience.map { .string($0) }))]))
    }

    /// `POST /device-keys` → `{key_id, device_id, platform, status, created_at, attestation}`. A key for a
    /// `device_id` that already has one revokes the old one (re-enrolment); a new device beyond
    /// `device_keys.max_keys_per_user` usable keys is refused (409 `device_key_limit_reached`).
    ///
    /// Enrolling needs the step-up (`requireStepUp`): a stolen refresh token, a password login, or a token for
    /// another API cannot enrol a key. The client's `device_keys.attestation` policy decides whether a platform
    /// attestation is verified or required (`EnrolmentAttestation`). An enrolment made with a DPoP-bound token binds
    /// the key to that DPoP key (`DeviceKey.dpopThumbprint`): a later proof by it is proof of the device
    /// (`DeviceProof`). `request` is read after the step-up.
    package func register(deviceID: String, request: RequestFields<DeviceKeyEnrolmentRequest>, caller: DeviceKeyCaller)
        async throws -> JSONValue
    {
        let subject = caller.subject
        try await requireStepUp(caller, deviceID: deviceID)
        let fields = try request.get()
        let platform = fields.platform.rawValue
        // The key is the X9.62 point iOS exports or the SPKI Android exports, P-256 only; a refusal names the reason.
        let publicKey: DevicePublicKey
        do {
            publicKey = try DevicePublicKey(importing: fields.publicKey)
        } catch {
            throw OAuthError.deviceKey(error)
        }
        let now = context.clock.now()
        let attestation: VerifiedPlatformAttestation?
        do {
            attestation = try await EnrolmentAttestation(context: context).verified(
                fields, publicKey: publicKey, subject: subject, now: now)
        } catch let refusal as OAuthError where refusal.kind == .invalidAttestation {
            try await DeviceKeyAccess(context: context).record(
                DeviceKeyAuditEvent.refusal(
                    .deviceKeyRegistered, refusal, now: now, subject: subject, keyID: nil,
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
                    .deviceKeyRegistered, outcome: DeviceKeyAuditEvent.success, now: now, subject: subject,
                    keyID: key.keyID, deviceID: deviceID,
                    reasonCode: replaced.isEmpty ? "new_device" : "replacement", detail: detail))
            for oldKeyID in replaced {
                _ = try writer.appendSecurityEvent(
                    DeviceKeyAuditEvent.make(
                        .deviceKeyRevoked, outcome: DeviceKeyAuditEvent.success, now: now, subject: subject,
                        keyID: oldKeyID, deviceID: deviceID, reasonCode: "replaced",
                        detail: [JSONMember(key: "replaced_by", value: .string(key.keyID))]))
            }
        }
        context.metrics.count(event: "device_key:registered")
        return [
            "key_id": .string(key.keyID), "device_id": .string(deviceID), "platform": .string(platform),
            "status": .string(key.status.rawValue), "created_at": RFC3339.timestamp(now),
            "attestation": key.attestation.map(DeviceKeyRepresentation.json) ?? .null,
        ]
    }

    /// The enrolment step-up (RFC 9470): a token for the device-key API whose login, by a user-verified passkey,
    /// is at most `device_keys.enrolment_max_age_seconds` old and minted the token itself (`FreshLoginRequirement`;
    /// a refresh-derived token never qualifies). A password login never qualifies, after a biometry change
    /// included: the replacement key is enrolled after a passkey login, as every key is. Every refusal is a security
    /// event.
    private func requireStepUp(_ caller: DeviceKeyCaller, deviceID: String) async throws {
        let subject = caller.subject
        let now = context.clock.now()
        let requirement = FreshLoginRequirement(for: .deviceKeyEnrolment, in: context.configuration)
        guard let refusal = requirement.stepUpRefusal(subject, now: now, change: "Enrolling a device key") else {
            return
        }
        try await DeviceKeyAccess(context: context).record(
            DeviceKeyAuditEvent.refusal(
                .deviceKeyRegistered, refusal, now: now, subject: subject, keyID: nil, deviceID: deviceID,
                detail: [
                    JSONMember(key: "amr", value: .array(subject.authenticationMethods.map { .string($0) })),
                    JSONMember(
                        key: "auth_time", value: subject.authTime.map(RFC3339.timestamp) ?? .null),
                ]))
        throw refusal
    }

    /// Creates the value from its stored properties.
    package init(context: ServerContext) {
        self.context = context
    }
}
