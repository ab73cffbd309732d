import Foundation
import Storage

/// The security events of sign-up, login, refresh and revocation, and of token-signing key rotation, as the audit
/// log records them (docs/audit.md): stable kinds, `success` or `failure` with the refusal's log code as reason.
/// The request id, client address and node are filled in by the store from `SecurityEventOrigin`.
package enum AuthenticationAuditEvent {
    /// A passkey sign-up (user and first credential created), or its refusal.
    package static let signup = "signup"
    /// A passkey login, or its refusal (reason: the refusal's code, e.g. `bad_signature`, `session_unknown`).
    package static let login = "login"
    /// A refresh token rotated (RFC 9700 §4.14.2), or a refresh refused.
    package static let refresh = "refresh"
    /// A spent refresh token presented again: its whole family revoked (RFC 9700 §4.14.2).
    package static let refreshReuse = "refresh_reuse"
    /// A refresh-token family revoked by its client (RFC 7009).
    package static let revocation = "revocation"
    /// A new token-signing key took over (`passkeyd keys rotate`).
    package static let signingKeyRotated = "signing_key_rotated"
    /// A stored token-signing key sealed (again) under the configured key-encryption key, at a start.
    package static let signingKeySealed = "signing_key_sealed"

    package static let success = "success"
    package static let failure = "failure"

    package static func make(
        _ kind: String, outcome: String, now: Date, userID: String? = nil, clientID: String? = nil,
        credentialID: [UInt8]? = nil, familyID: String? = nil, keyID: String? = nil, reasonCode: String? = nil
    ) -> SecurityEvent {
        SecurityEvent(
            occurredAt: now, kind: kind, userID: userID, keyID: keyID, clientID: clientID, outcome: outcome,
            reasonCode: reasonCode, credentialID: credentialID, familyID: familyID)
    }

    /// The refusal `error` of `kind`: its log code as reason (a failure that is not an `OAuthError`: `internal`).
    package static func refusal(
        _ kind: String, _ error: any Error, now: Date, clientID: String?, userID: String? = nil,
        credentialID: [UInt8]? = nil
    ) -> SecurityEvent {
        make(
            kind, outcome: failure, now: now, userID: userID, clientID: clientID, credentialID: credentialID,
            reasonCode: (error as? OAuthError)?.logCode ?? "internal")
    }
}
