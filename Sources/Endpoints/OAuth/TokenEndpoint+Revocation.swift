import HTTP
import JSON
import Service
import Storage
import Tokens

extension TokenEndpoint {
    /// `POST /oauth/revoke` (RFC 7009): revokes the refresh token's whole family. 200 for unknown tokens, access
    /// tokens (self-contained JWTs, which expire on their own) and tokens of another client alike (§2.2), so the
    /// endpoint tells nothing about a token.
    package func revoke(_ request: Request) async throws -> Response {
        let parameters = try RequestParameters(request)
        let client = try ClientResolution.client(parameters, allowing: nil, context: context)
        let token = try parameters.string("token", maxLength: 16_384)
        _ = try parameters.optionalString("token_type_hint", maxLength: 64)
        guard let presented = try? Tokens.RefreshToken(presented: token) else { return .json(.object([])) }
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
                    AuthenticationAuditEvent.revocation, outcome: AuthenticationAuditEvent.success, now: now,
                    userID: stored.userID, clientID: clientID, familyID: stored.familyID))
            return revoked
        }
        if revoked { context.metrics.count(event: "refresh_token_revoked") }
        return .json(.object([]))
    }
}
