import Configuration
import Storage
import Tokens

/// RFC 7009 token revocation: a refresh token revokes its whole family; an access token this issuer minted ends its
/// session family (`sid`, `SessionFamilyRevocation`), so that it and every other token of that login are refused at
/// passkeyd's own endpoints and the family's refresh token stops working (§2.1: the server "MAY revoke the
/// respective refresh token as well"; a resource server that only checks the JWT keeps accepting it until it
/// expires). Unknown, expired and malformed tokens and tokens of another client are answered alike (§2.2), so the
/// answer tells nothing about a token.
package struct TokenRevocation: Sendable {
    package let context: ServerContext

    package init(context: ServerContext) {
        self.context = context
    }

    /// Revokes the family of `token` (`token` as sent) when it is a refresh token or an access token `client` was
    /// issued.
    package func revoke(_ token: String, client: ClientConfiguration) async throws {
        guard let presented = try? Tokens.RefreshToken(presented: token) else {
            try await revokeAccessToken(token, client: client)
            return
        }
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

    /// Ends the session family of the access token `token` when this issuer minted it for `client` (RFC 7009 §2.1)
    /// and it names one (`sid`), with a `revocation` event in the same write.
    private func revokeAccessToken(_ token: String, client: ClientConfiguration) async throws {
        guard let claims = try await context.tokens.mintedAccessTokenClaims(token), claims.clientID == client.clientID,
            let family = claims.sessionID
        else { return }
        let now = context.clock.now()
        let grant = SessionFamilyRevocation.Grant(
            clientID: claims.clientID, userID: claims.subject, scope: claims.scope.joined(separator: " "),
            authTime: claims.authTime ?? claims.issuedAt, audience: claims.audience.first,
            organizationID: claims.organizationID)
        let configuration = context.configuration
        let revoked = try await context.store.write { writer -> Bool in
            let revoked = try SessionFamilyRevocation.revoke(
                writer, family: family, grant: grant, now: now, configuration: configuration)
            _ = try writer.appendSecurityEvent(
                AuthenticationAuditEvent.make(
                    .revocation, outcome: AuthenticationAuditEvent.success, now: now, userID: claims.subject,
                    clientID: client.clientID, familyID: family))
            return revoked
        }
        if revoked { context.metrics.count(event: "access_token_revoked") }
    }
}
