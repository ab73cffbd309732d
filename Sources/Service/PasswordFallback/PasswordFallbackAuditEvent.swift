import Foundation
import JSON
import Storage

/// The security events of the password fallback (`SecurityEvent.Kind`: `passwordAuthFallback`, `srpLoginAttempt`,
/// `srpLocked`, `passwordVerifierStored`, `passwordVerifierSealed`, `serverSecretSealed`, `serverSecretRotated`,
/// `deviceKeyPasswordRequired`), appended through `StoreWriter.appendSecurityEvent`. Outcomes and reason codes are
/// stable strings.
package enum PasswordFallbackAuditEvent {
    /// One event at server time `now`.
    package static func make(
        _ kind: SecurityEvent.Kind, outcome: String, now: Date, userID: String?, clientID: String?,
        keyID: String? = nil, deviceID: String? = nil, reasonCode: String? = nil, attempts: Int? = nil,
        detail: [JSONMember] = []
    ) -> SecurityEvent {
        SecurityEvent(
            occurredAt: now, kind: kind, userID: userID, keyID: keyID, deviceID: deviceID, clientID: clientID,
            outcome: outcome, reasonCode: reasonCode, attempts: attempts,
            detail: detail.isEmpty ? nil : JSONValue.object(detail).serialized())
    }
}
