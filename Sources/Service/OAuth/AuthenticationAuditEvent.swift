import Foundation
import Storage

/// The security events of sign-up, login, refresh and revocation, and of token-signing key rotation, as the audit
/// log records them (docs/audit.md): kinds `SecurityEvent.Kind` (`signup`, `login`, `refresh`, `refreshReuse`,
/// `revocation`, `signingKeyRotated`, `signingKeySealed`), `success` or `failure` with the refusal's log code as
/// reason. The request id, client address and node are filled in by the store from `SecurityEventOrigin`.
package enum AuthenticationAuditEvent {
    package static let success = "success"
    package static let failure = "failure"

    package static func make(
        _ kind: SecurityEvent.Kind, outcome: String, now: Date, userID: String? = nil, clientID: String? = nil,
        credentialID: [UInt8]? = nil, familyID: String? = nil, keyID: String? = nil, reasonCode: String? = nil
    ) -> SecurityEvent {
        SecurityEvent(
            occurredAt: now, kind: kind, userID: userID, keyID: keyID, clientID: clientID, outcome: outcome,
            reasonCode: reasonCode, credentialID: credentialID, familyID: familyID)
    }

    /// The refusal `error` of `kind`: the log code of its OAuth answer (`OAuthError.mapping`) as reason, so that a
    /// failed WebAuthn check is recorded by its code (`bad_signature`, `challenge_mismatch`, …) as the log and the
    /// metrics name it, and an error nothing maps is `bug`.
    package static func refusal(
        _ kind: SecurityEvent.Kind, _ error: any Error, now: Date, clientID: String?, userID: String? = nil,
        credentialID: [UInt8]? = nil
    ) -> SecurityEvent {
        make(
            kind, outcome: failure, now: now, userID: userID, clientID: clientID, credentialID: credentialID,
            reasonCode: OAuthError.mapping(error).logCode)
    }
}
