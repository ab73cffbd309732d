import Configuration

/// Whose a ceremony session is, for every grant that finishes one (the passkey grant's `AuthSession`, the SRP-6a
/// grant's `SRPSession`): the session must be the presenting client's, and of the realm the request names, if it
/// names one. Checked once the session is spent (single use, whatever the outcome).
package enum SessionOwnership {
    /// - Throws: 403 `invalid_grant` (`session_other_client`, `session_other_realm`).
    package static func check(
        sessionClientID: String, sessionRealm: String, client: ClientConfiguration, realmName: String?
    ) throws(OAuthError) {
        guard sessionClientID == client.clientID else {
            throw OAuthError.invalidSession("session_other_client", reason: "session of \(sessionClientID)")
        }
        if let realmName, realmName != sessionRealm {
            throw OAuthError.invalidSession("session_other_realm", reason: "session of realm \(sessionRealm)")
        }
    }
}
