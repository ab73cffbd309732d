import Foundation
import Storage

extension HostedLogin {
    /// The live login session the cookie value `sessionCookie` stands for, nil for a missing, unknown, ended or
    /// expired one: what `/oidc/logout` asks before it decides whether the user must confirm (OIDC RP-Initiated
    /// Logout 1.0 §2).
    package func liveSession(sessionCookie: String?) async throws -> LoginSession? {
        guard let sessionHash = sessionCookie.flatMap(Self.hashOfPresented) else { return nil }
        let now = context.clock.now()
        let session = try await context.store.read { reader in try reader.loginSession(idHash: sessionHash) }
        return session.flatMap { $0.isLive(at: now) ? $0 : nil }
    }

    /// Ends the login session whose cookie value is `sessionCookie` (OIDC RP-Initiated Logout 1.0 §2, Auth0's
    /// `/v2/logout`): its `ended_at` is set in the store, so every node refuses it from then on, with a `logout` audit
    /// event (naming `clientID` when the request named a client) in the same write. Returns whether a live session
    /// was ended; a missing, unknown or already ended one ends nothing and records nothing.
    package func logout(sessionCookie: String?, clientID: String? = nil) async throws -> Bool {
        guard let sessionHash = sessionCookie.flatMap(Self.hashOfPresented) else { return false }
        let now = context.clock.now()
        return try await context.store.write { writer -> Bool in
            guard let session = try writer.loginSession(idHash: sessionHash),
                try writer.endLoginSession(idHash: sessionHash, at: now)
            else { return false }
            _ = try writer.appendSecurityEvent(
                AuthenticationAuditEvent.make(
                    .logout, outcome: AuthenticationAuditEvent.success, now: now, userID: session.userID,
                    clientID: clientID))
            return true
        }
    }
}
