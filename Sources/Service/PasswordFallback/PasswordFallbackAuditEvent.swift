import Foundation
import JSON
import Storage

/// The security events of the password fallback, appended through `StoreWriter.appendSecurityEvent`. Kinds,
/// outcomes and reason codes are stable strings.
package enum PasswordFallbackAuditEvent {
    /// A successful SRP login (the name the vault's audit trail uses).
    package static let success = "PASSWORD_AUTH_FALLBACK"
    /// A refused SRP login attempt (reason: `bad_proof`, `srp_locked`, `srp_delayed`), with the failure count.
    package static let attempt = "srp_login_attempt"
    /// An identity reached `srp.max_failures` and is locked.
    package static let locked = "srp_locked"
    /// A verifier was enrolled or replaced (reason: `enrolled`, `replaced`).
    package static let verifierStored = "password_verifier_stored"
    /// A start sealed a stored verifier under the key-encryption key (`PasswordVerifierSealing`).
    package static let verifierSealed = "password_verifier_sealed"
    /// A start sealed a stored server secret under the key-encryption key (`ServerSecretSealing`).
    package static let serverSecretSealed = "server_secret_sealed"
    /// A device key's approvals now wait for the password (biometric failures).
    package static let passwordRequired = "device_key_password_required"

    /// One event at server time `now`.
    package static func make(
        _ kind: String, outcome: String, now: Date, userID: String?, clientID: String?, keyID: String? = nil,
        deviceID: String? = nil, reasonCode: String? = nil, attempts: Int? = nil, detail: [JSONMember] = []
    ) -> SecurityEvent {
        SecurityEvent(
            occurredAt: now, kind: kind, userID: userID, keyID: keyID, deviceID: deviceID, clientID: clientID,
            outcome: outcome, reasonCode: reasonCode, attempts: attempts,
            detail: detail.isEmpty ? nil : JSONValue.object(detail).serialized())
    }
}
