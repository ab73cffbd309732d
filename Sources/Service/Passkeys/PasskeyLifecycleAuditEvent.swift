import Foundation
import JSON
import Storage

/// The security events of a user's passkeys over their lifetime, recovery and account deletion, appended through
/// `StoreWriter.appendSecurityEvent` (`SecurityEvent.Kind`: `passkeyAdded`, `passkeyRenamed`, `passkeyRemoved`,
/// `recoveryCodesGenerated`, `recoveryChallenge`, `recoveryAttempt`, `recoveryLocked`, `sessionsRevoked`,
/// `accountDeleted`, `loginLocksLifted`; docs/audit.md says what each holds). Outcomes and reason codes are stable
/// strings; the user is named by id only (pseudonymous), never by an identifier.
package enum PasskeyLifecycleAuditEvent {
    package static let success = "success"
    package static let failure = "failure"

    /// One event at server time `now`; `actor` (an operator's name) goes into `detail`, else `detail` as given.
    package static func make(
        _ kind: SecurityEvent.Kind, outcome: String = success, now: Date, userID: String?, clientID: String? = nil,
        credentialID: [UInt8]? = nil, keyID: String? = nil, reasonCode: String? = nil, attempts: Int? = nil,
        actor: String? = nil, detail: [UInt8]? = nil
    ) -> SecurityEvent {
        SecurityEvent(
            occurredAt: now, kind: kind, userID: userID, keyID: keyID, clientID: clientID, outcome: outcome,
            reasonCode: reasonCode, attempts: attempts,
            detail: actor.map { JSONValue.object([JSONMember(key: "actor", value: .string($0))]).serialized() }
                ?? detail,
            credentialID: credentialID)
    }
}
