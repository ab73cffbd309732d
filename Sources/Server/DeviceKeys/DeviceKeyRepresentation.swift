import Foundation
import HTTP
import Storage

/// How a device key appears on the wire (`POST` and `GET /device-keys`, unlock): ids, platform, status and
/// RFC 3339 UTC times. The public key itself is never echoed.
enum DeviceKeyRepresentation {
    /// The full view of `key`; times absent from the record are `null`.
    static func json(_ key: DeviceKey) -> JSONValue {
        [
            "key_id": .string(key.keyID),
            "device_id": .string(key.deviceID),
            "platform": .string(key.platform),
            "status": .string(key.status.rawValue),
            "created_at": timestamp(key.createdAt),
            "last_used_at": key.lastUsedAt.map(timestamp) ?? .null,
            "locked_at": key.lockedAt.map(timestamp) ?? .null,
            "revoked_at": key.revokedAt.map(timestamp) ?? .null,
            "failed_attempts": JSONValue(key.failedAttempts),
            "attestation": key.attestation.map(json) ?? .null,
            // The DPoP key bound at enrolment, whose proofs prove the device (`DeviceProof`).
            "dpop_jkt": key.dpopThumbprint.map { .string($0) } ?? .null,
        ]
    }

    /// `{platform, level, verified_at, verified_boot_state?}` of a verified attestation.
    static func json(_ attestation: DeviceKeyAttestation) -> JSONValue {
        var members = [
            JSONMember(key: "platform", value: .string(attestation.platform)),
            JSONMember(key: "level", value: .string(attestation.level)),
            JSONMember(key: "verified_at", value: timestamp(attestation.verifiedAt)),
        ]
        if let state = attestation.verifiedBootState {
            members.append(JSONMember(key: "verified_boot_state", value: .string(state)))
        }
        return .object(members)
    }

    /// One entry of the `GET /device-keys` history: `{type, outcome, reason, key_id, device_id, client_id,
    /// occurred_at}` (`type` `device_key_registered` or `device_key_revoked`; `reason` e.g. `new_device`,
    /// `replacement`, `replaced`, `deleted`, `key_invalidated`, or the refusal's code).
    static func json(_ event: SecurityEvent) -> JSONValue {
        [
            "type": .string(event.kind),
            "outcome": .string(event.outcome),
            "reason": event.reasonCode.map(JSONValue.string) ?? .null,
            "key_id": event.keyID.map(JSONValue.string) ?? .null,
            "device_id": event.deviceID.map(JSONValue.string) ?? .null,
            "client_id": event.clientID.map(JSONValue.string) ?? .null,
            "occurred_at": timestamp(event.occurredAt),
        ]
    }

    /// RFC 3339 §5.6 date-time in UTC, whole seconds (`2026-11-29T17:52:05Z`).
    static func timestamp(_ date: Date) -> JSONValue {
        .string(date.formatted(Date.ISO8601FormatStyle()))
    }

    /// Reads an RFC 3339 date-time, with or without fractional seconds; `nil` otherwise.
    static func date(fromRFC3339 text: String) -> Date? {
        if let date = try? Date.ISO8601FormatStyle().parse(text) { return date }
        return try? Date.ISO8601FormatStyle(includingFractionalSeconds: true).parse(text)
    }
}
