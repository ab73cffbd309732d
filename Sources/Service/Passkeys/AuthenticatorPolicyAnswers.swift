import Crypto
import Foundation
import JSON
import Metadata
import Storage

// The answers and audit events of the authenticator policy's decisions (`AuthenticatorPolicyEvaluation`): a refusal
// names the authenticator and the reason (never the generic "could not be verified"), with its own log code.

extension AuthenticatorPolicyEvaluation.Refusal {
    /// The log code of every registration refusal (the audit event's `reason` says which).
    package static let logCode = "authenticator_refused"

    /// 403 `access_denied` naming the authenticator and the reason, carrying its `authenticator_refused` event for the
    /// refusal's write (`OAuthError.securityEvents`).
    package func error(clientID: String, userID: String?, now: Date) -> OAuthError {
        var error = OAuthError(
            .accessDenied, "The authenticator \(authenticatorLabel) is not accepted: \(explanation).",
            logCode: Self.logCode,
            reason: "\(reason.rawValue) aaguid \(UUIDText.format(aaguid)) status \(status?.rawValue ?? "none")")
        error.securityEvents = [event(clientID: clientID, userID: userID, now: now)]
        return error
    }

    /// `authenticator_refused`: the client, the user when the account exists (adding a passkey), the reason, and
    /// the AAGUID, status and name in the detail.
    package func event(clientID: String, userID: String?, now: Date) -> SecurityEvent {
        SecurityEvent(
            occurredAt: now, kind: .authenticatorRefused, userID: userID, clientID: clientID, outcome: "failure",
            reasonCode: reason.rawValue,
            detail: AuthenticatorPolicyEvaluation.detail(aaguid: aaguid, status: status, name: authenticatorName))
    }
}

extension AuthenticatorPolicyEvaluation.Reported {
    /// The log code of a login refused for a reported authenticator.
    package static let logCode = "authenticator_reported"

    /// `authenticator_reported`: the login's user, client and credential; `decision` (`warned` or `refused`) as the
    /// reason; the AAGUID, status and name in the detail. A warned login succeeded, a refused one failed.
    package func event(decision: String, clientID: String, userID: String, credentialID: [UInt8], now: Date)
        -> SecurityEvent
    {
        SecurityEvent(
            occurredAt: now, kind: .authenticatorReported, userID: userID, clientID: clientID,
            outcome: decision == "warned" ? "success" : "failure", reasonCode: decision,
            detail: AuthenticatorPolicyEvaluation.detail(
                aaguid: aaguid, status: report.status, name: authenticatorName),
            credentialID: credentialID)
    }

    /// 403 `access_denied` naming the authenticator and its status (`compromised_at_login: refuse`), carrying its
    /// `authenticator_reported` event for the refusal's write.
    package func refusal(clientID: String, userID: String, credentialID: [UInt8], now: Date) -> OAuthError {
        let label = AuthenticatorPolicyEvaluation.label(name: authenticatorName, aaguid: aaguid)
        var error = OAuthError(
            .accessDenied,
            "The passkey's authenticator \(label) is no longer accepted: its FIDO metadata reports "
                + "\(report.status.rawValue). Sign in another way and replace this passkey.",
            logCode: Self.logCode, reason: "aaguid \(UUIDText.format(aaguid)) status \(report.status.rawValue)")
        error.securityEvents = [
            event(decision: "refused", clientID: clientID, userID: userID, credentialID: credentialID, now: now)
        ]
        return error
    }
}

extension AuthenticatorPolicyEvaluation {
    /// The audit detail of a policy event: `{"aaguid", "status", "authenticator"}` (the last two when known).
    static func detail(aaguid: [UInt8], status: AuthenticatorStatus?, name: String?) -> [UInt8] {
        var members = [JSONMember(key: "aaguid", value: .string(UUIDText.format(aaguid)))]
        if let status { members.append(JSONMember(key: "status", value: .string(status.rawValue))) }
        if let name { members.append(JSONMember(key: "authenticator", value: .string(String(name.prefix(256))))) }
        return JSONValue.object(members).serialized()
    }
}
