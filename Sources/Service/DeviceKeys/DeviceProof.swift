import DeviceKeys
import Foundation
import JSON

/// Proof that a destructive operation on a device's key comes from that device, or from the user with a fresh
/// user-verified passkey login (docs/device-keys.md, "Device proof"). A bare bearer token — a stolen refresh
/// token's, a password login's — revokes no key and forces no lockout: whoever holds it proves neither.
///
/// The operations that need one: revoking a key (`DELETE /device-keys/{key_id}`), reporting its invalidation
/// (`key_invalidated`) and the biometric failure that reaches the lockout (`POST /device-events`).
package enum DeviceProof: Sendable, Equatable {
    /// The request came with a DPoP proof (RFC 9449 §7, checked by `TokenService.authenticate`) by the key the
    /// device's enrolment token was bound to (`DeviceKey.dpopThumbprint`): the app's own key, which outlives a
    /// biometry change.
    case boundDPoPKey
    /// A signature by the device key over a device-proof challenge (`DeviceProofAction`), checked in the
    /// operation's write, which consumes the challenge.
    case signature(challengeID: String, signature: [UInt8])
    /// A user-verified passkey login of the last `device_keys.enrolment_max_age_seconds`, which minted the token
    /// (`FreshLoginRequirement`): the user, not the device, for a device that is lost or whose key is gone.
    case freshLogin

    /// How the proof is named in the audit log's `detail.proof`.
    package var name: String {
        switch self {
        case .boundDPoPKey: "dpop"
        case .signature: "signature"
        case .freshLogin: "fresh_login"
        }
    }

    /// The `error` a missing proof is answered with (403 `device_proof_required`).
    package static func required(_ operation: DeviceProofAction.Operation, maxAge: Int) -> OAuthError {
        OAuthError(
            .deviceProofRequired,
            "This needs proof of the device: a DPoP proof by the key bound at enrolment, a signed device-proof "
                + "challenge, or a passkey login with user verification in the last \(maxAge) seconds.",
            logCode: "device_proof_required", reason: operation.rawValue)
    }
}

/// The action a device-proof challenge carries (`POST /device-keys/{key_id}/challenges` with `{"action": {"type":
/// "passkeyd:device_proof", "operation": …}}`): the one action type passkeyd reserves. Its signature proves the
/// device for that operation only, and never approves anything (approvals refuse it).
package enum DeviceProofAction {
    /// The reserved action type.
    package static let type = "passkeyd:device_proof"

    /// What the proof is for.
    package enum Operation: String, Sendable, CaseIterable {
        /// `DELETE /device-keys/{key_id}`.
        case revokeKey = "revoke_key"
        /// `POST /device-events` `key_invalidated`.
        case keyInvalidated = "key_invalidated"
        /// `POST /device-events` `biometric_failure` reaching `device_keys.max_failed_attempts`.
        case biometricLockout = "biometric_lockout"
    }

    /// The canonical action of `operation`, as the device signs it.
    package static func action(_ operation: Operation) throws(DeviceKeyError) -> DeviceAction {
        try DeviceAction(validating: ["type": .string(type), "operation": .string(operation.rawValue)])
    }

    /// Whether `action` is of the reserved type, and then whether it is exactly a device-proof action: `type` and a
    /// known `operation`, nothing else.
    package static func check(_ action: DeviceAction) -> (reserved: Bool, valid: Bool) {
        guard action.type == type else { return (false, false) }
        guard let members = action.value.objectValue, members.count == 2,
            let operation = members["operation"]?.stringValue, Operation(rawValue: operation) != nil
        else { return (true, false) }
        return (true, true)
    }
}
