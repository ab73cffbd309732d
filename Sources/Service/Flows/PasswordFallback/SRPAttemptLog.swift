import Crypto
import Foundation
import JSON
import Storage

/// The audit side of the SRP logins (docs/password-fallback.md, "Audit"), shared by `/srp/challenge`
/// (`SRPChallenge`) and the grant (`SRPLogin`): the refusal of an attempt the throttle delays or locks, a wrong
/// proof and the lock it starts, and the detail each of their events carries.
package struct SRPAttemptLog: Sendable {
    package let context: ServerContext

    package init(context: ServerContext) {
        self.context = context
    }

    /// Refuses an attempt the throttle delays or locks, recording it; returns when it is allowed.
    /// - Throws: 429 `too_many_requests` (`passwordDelayed`) or 403 `password_locked` (`passwordLocked`), each with
    ///   `Retry-After`.
    package func enforce(
        _ decision: SRPThrottle.Decision, userID: String?, clientID: String, realm: String, identity: String,
        address: String, attempts: Int?, now: Date
    ) async throws {
        let refusal: OAuthError
        switch decision {
        case .allowed: return
        case .delayed(let retryAfter): refusal = .passwordDelayed(retryAfter: retryAfter)
        case .locked(let retryAfter): refusal = .passwordLocked(retryAfter: retryAfter)
        }
        try await context.store.write { writer in
            _ = try writer.appendSecurityEvent(
                PasswordFallbackAuditEvent.make(
                    .srpLoginAttempt, outcome: "failure", now: now, userID: userID,
                    clientID: clientID, reasonCode: refusal.logCode, attempts: attempts,
                    detail: try Self.detail(
                        realm: realm, identity: identity, address: address, reader: writer,
                        keys: try context.secrets.get())))
        }
        throw refusal
    }

    /// Records a failed SRP login (counted already, when it was judged) and, from `srp.max_failures` on, the lock it
    /// starts.
    package func recordFailure(_ session: SRPSession, attempt: ThrottledAttempt, throttle: SRPThrottle, now: Date)
        async throws
    {
        let failures = attempt.identityFailures
        try await context.store.write { writer in
            let detail = try Self.detail(
                realm: session.realm, identity: session.identity, address: session.address, reader: writer,
                keys: try context.secrets.get())
            _ = try writer.appendSecurityEvent(
                PasswordFallbackAuditEvent.make(
                    .srpLoginAttempt, outcome: "failure", now: now, userID: session.userID,
                    clientID: session.clientID, reasonCode: "bad_proof", attempts: failures, detail: detail))
            if let failures, throttle.locks(atFailures: failures) {
                _ = try writer.appendSecurityEvent(
                    PasswordFallbackAuditEvent.make(
                        .srpLocked, outcome: "success", now: now, userID: session.userID,
                        clientID: session.clientID, reasonCode: "max_failures", attempts: failures, detail: detail))
            }
        }
        context.metrics.count(event: "srp_login_failed")
    }

    /// The detail of an attempt's audit event: the identity as a keyed reference, never as typed, and the address.
    /// The reference is an HMAC-SHA-256 under the server's SRP secret (domain-separated from the stand-in salts that
    /// key also derives, `SRPStandIn`), cut to 16 bytes: the attempts on one identity match each other, and an
    /// operator who holds the database can tell which identity they were, but the append-only log never holds an
    /// email or user name, so deleting an account leaves only pseudonymous entries behind (issue #21). Without a
    /// stored secret (the very first challenge is refused before one exists) the reference is left out.
    package static func detail(
        realm: String, identity: String, address: String, reader: any StoreReader, keys: SecretEncryptionKeys
    ) throws -> [JSONMember] {
        var detail: [JSONMember] = []
        if let stored = try reader.serverSecret(name: PasswordFallback.fakeSaltSecretName) {
            let secret = try keys.namedSecret(stored, name: PasswordFallback.fakeSaltSecretName)
            let reference = try HMAC.sha256(
                key: secret, message: Array("audit-identity\u{0}\(realm)\u{0}\(identity)".utf8))
            detail.append(
                JSONMember(key: "identity_ref", value: .string(Base64URL.encode(Array(reference.prefix(16))))))
        }
        detail.append(JSONMember(key: "address", value: .string(address)))
        return detail
    }
}
