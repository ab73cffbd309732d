import Foundation
import JSON
import Storage

/// The structured security events of the device-key path (registration, revocation, lock, unlock, challenges,
/// approvals, and what apps report to `/device-events`): who, which key, which action hash, outcome and reason
/// code, stamped with the server's UTC time. The probative audit log builds on
/// these records, so kinds (`SecurityEvent.Kind`), outcomes and reason codes are stable strings.
package enum DeviceKeyAuditEvent {
    // MARK: outcomes
    /// The operation happened.
    package static let success = "success"
    /// The operation was refused; `reasonCode` says why.
    package static let failure = "failure"
    /// A device reported something only it can see (recorded as information).
    package static let reported = "reported"

    /// One event at server time `now`; `detail` members become the JSON `detail` bytes.
    package static func make(
        _ kind: SecurityEvent.Kind, outcome: String, now: Date, subject: AuthenticatedSubject, keyID: String? = nil,
        deviceID: String? = nil, actionHash: [UInt8]? = nil, reasonCode: String? = nil, attempts: Int? = nil,
        deviceTime: Date? = nil, detail: [JSONMember] = []
    ) -> SecurityEvent {
        SecurityEvent(
            occurredAt: now, deviceTime: deviceTime, kind: kind, userID: subject.sub, keyID: keyID,
            deviceID: deviceID, clientID: subject.clientID, actionHash: actionHash, outcome: outcome,
            reasonCode: reasonCode, attempts: attempts,
            detail: detail.isEmpty ? nil : JSONValue.object(detail).serialized())
    }

    /// A refusal of `kind`, its reason code the refusal's log code.
    package static func refusal(
        _ kind: SecurityEvent.Kind, _ error: OAuthError, now: Date, subject: AuthenticatedSubject, keyID: String?,
        deviceID: String? = nil, actionHash: [UInt8]? = nil, attempts: Int? = nil, detail: [JSONMember] = []
    ) -> SecurityEvent {
        make(
            kind, outcome: failure, now: now, subject: subject, keyID: keyID, deviceID: deviceID,
            actionHash: actionHash, reasonCode: error.logCode, attempts: attempts, detail: detail)
    }
}
