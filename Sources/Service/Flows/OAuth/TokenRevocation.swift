import Storage
import Tokens

/// RFC 7009 token revocation: a refresh token revokes its whole family. Unknown tokens, access tokens
/// (self-contained JWTs, which expire on their own) and tokens of another client are answered alike (§2.2), so the
/// answer tells nothing about a token.
package struct TokenRevocation: Sendable {
    package let context: ServerContext

    package init(context: ServerContext) {
        self.context = context
    }

    /// Revokes the family of `token` (`token` as sent) when it is a refresh token `client` was issued.
    package func revoke(_ token: String, client: ClientConfiguration) async throws {
        guard let presented = try? Tokens.RefreshToken(presented: token) else { return }
        let now = context.clock.now()
        let clientID = client.clientID
        let revoked = try await context.store.write { writer -> Bool in
            // RFC 7009 §2.1: only the client the token was issued to may revoke it.
            guard let stored = try writer.refreshToken(hash: presented.hash), stored.clientID == clientID else {
                return false
            }
            let revoked = try writer.revokeRefreshTokenFamily(tokenHash: presented.hash, now: now)
            // RFC 7009 revocation of the family enters the audit log in the same write (docs/audit.md).
            _ = try writer.appendSecurityEvent(
                AuthenticationAuditEvent.make(
                    .revocation, outcome: AuthenticationAuditEvent.success, now: now,
                    userID: stored.userID, clientID: clientID, familyID: stored.familyID))
            return revoked
        }
        if revoked { context.metrics.count(event: "refresh_token_revoked") }
    }
}
