import Foundation
import JSON
import Storage

/// The security events of a user's passkeys over their lifetime, recovery and account deletion, appended through
/// `StoreWriter.appendSecurityEvent`. Kinds, outcomes and reason codes are stable strings; the user is named by
/// id only (pseudonymous), never by an identifier.
package enum PasskeyLifecycleAuditEvent {
    /// A passkey added to an existing account (reason `recovery` when the recovery token did it, spending it: the
    /// detail names the token's `jti`), or refused.
    package static let passkeyAdded = "passkey_added"
    /// A passkey renamed.
    package static let passkeyRenamed = "passkey_renamed"
    /// A passkey removed (by the user, or `operator`), or refused (`last_passkey`).
    package static let passkeyRemoved = "passkey_removed"
    /// A new set of recovery codes (the old set revoked).
    package static let recoveryCodesGenerated = "recovery_codes_generated"
    /// A recovery started (`POST /recovery/challenge`); the user id only when the identifier is known.
    package static let recoveryChallenge = "recovery_challenge"
    /// A recovery code presented: success (the detail names the `jti` of the recovery token it bought), or failure
    /// with the reason (`bad_code`, `recovery_delayed`, `recovery_locked`) and the failure count.
    package static let recoveryAttempt = "recovery_attempt"
    /// An identifier reached the failure limit: recovery locked.
    package static let recoveryLocked = "recovery_locked"
    /// Every refresh-token family of a user revoked (after a recovery enrolment, or `passkeyd sessions revoke`), or of
    /// every user (`passkeyd sessions revoke-all`: no user id, reason `operator_all`, the family count in `attempts`).
    package static let sessionsRevoked = "sessions_revoked"
    /// An account deleted (`DELETE /me`, or `passkeyd users delete`).
    package static let accountDeleted = "account_deleted"
    /// A user's password and recovery locks lifted by an operator (`passkeyd users unlock`: reason `operator`, the
    /// actor in the detail, how many failure counters were cleared in `attempts`).
    package static let locksLifted = "login_locks_lifted"

    package static let success = "success"
    package static let failure = "failure"

    /// One event at server time `now`; `actor` (an operator's name) goes into `detail`, else `detail` as given.
    package static func make(
        _ kind: String, outcome: String = success, now: Date, userID: String?, clientID: String? = nil,
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
