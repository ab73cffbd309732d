import Foundation
import JSON
import Storage

/// How a device key appears on the wire (`POST` and `GET /device-keys`, unlock): ids, platform, status and
/// RFC 3339 UTC times. The public key itself is never echoed.
package enum DeviceKeyRepresentation {
    /// The full view of `key`; times absent from the record are `null`.
    package static func json(_ key: DeviceKey) -> JSONValue {
        [
            "key_id": .string(key.keyID),
            "device_id": .string(key.deviceID),
            "platform": .string(key.platform),
            "status": .string(key.status.rawValue),
            "created_at": RFC3339.timestamp(key.createdAt),
            "last_used_at": key.lastUsedAt.map(RFC3339.timestamp) ?? .null,
            "locked_at": key.lockedAt.map(RFC3339.timestamp) ?? .null,
            "revoked_at": key.revokedAt.map(RFC3339.timestamp) ?? .null,
            "failed_attempts": JSONValue(key.failedAttempts),
            "attestation": key.attestation.map(json) ?? .null,
            // The DPoP key bound at enrolment, whose proofs prove the device (`DeviceProof`).
            "dpop_jkt": key.dpopThumbprint.map { .string($0) } ?? .null,
        ]
    }

    /// `{platform, level, verified_at, verified_boot_state?}` of a verified attestation.
    package static func json(_ attestation: DeviceKeyAttestation) -> JSONValue {
        var members = [
            JSONMember(key: "platform", value: .string(attestation.platform)),
            JSONMember(key: "level", value: .string(attestation.level)),
            JSONMember(key: "verified_at", value: RFC3339.timestamp(attestation.verifiedAt)),
        ]
        if let state = attestation.verifiedBootState {
            members.append(JSONMember(key: "verified_boot_state", value: .string(state)))
        }
        return .object(members)
    }

    /// One entry of the `GET /device-keys` history: `{type, outcome, reason, key_id, device_id, client_id,
    /// occurred_at}` (`type` `device_key_registered` or `device_key_revoked`; `reason` e.g. `new_device`,
    /// `replacement`, `replaced`, `deleted`, `key_invalidated`, or the refusal's code).
    package static func json(_ event: SecurityEvent) -> JSONValue {
        [
            "type": .string(event.kind),
            "outcome": .string(event.outcome),
            "reason": event.reasonCode.map(JSONValue.string) ?? .null,
            "key_id": event.keyID.map(JSONValue.string) ?? .null,
            "device_id": event.deviceID.map(JSONValue.string) ?? .null,
            "client_id": event.clientID.map(JSONValue.string) ?? .null,
            "occurred_at": RFC3339.timestamp(event.occurredAt),
        ]
    }

}
