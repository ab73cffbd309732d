import Foundation
import HTTP
import Storage
import Tokens

extension TokenEndpoint {
    /// What the rotating write decided; reuse is reported after the family revocation has committed.
    enum RefreshOutcome: Sendable {
        case rotated(presented: Storage.RefreshToken, user: User, newToken: String)
        case refused(logCode: String)
    }

    /// `grant_type=refresh_token` (RFC 6749 §6) with rotation on every use and reuse detection
    /// (RFC 9700 §4.14.2): one write reads the presented token, checks its client, and rotates it.
    func refreshTokenGrant(_ parameters: RequestParameters, client: ClientConfiguration) async throws -> Response {
        let presented = try Tokens.RefreshToken(presented: try parameters.string("refresh_token", maxLength: 128))
        let requestedScope = try parameters.optionalString("scope", maxLength: 1024).map { text throws in
            guard let scope = Scope(parsing: text) else { throw OAuthError.invalidParameter("scope") }
            return scope
        }
        let now = context.clock.now()
        let tokens = context.tokens
        let clientID = client.clientID
        let outcome = try await context.store.write { writer -> RefreshOutcome in
            guard let stored = try writer.refreshToken(hash: presented.hash) else {
                return .refused(logCode: "refresh_unknown")
            }
            // RFC 6749 §6: the token must have been issued to the authenticated client; nothing changes otherwise.
            guard stored.clientID == clientID else { return .refused(logCode: "refresh_other_client") }
            let replacement = try tokens.newRefreshToken(
                familyID: stored.familyID, clientID: clientID, userID: stored.userID, scope: stored.scope,
                authTime: stored.authTime, now: now, absoluteExpiresAt: stored.absoluteExpiresAt)
            switch try writer.rotateRefreshToken(
                presentedHash: presented.hash, now: now, replacement: replacement.record)
            {
            case .rotated(let token):
                guard let user = try writer.user(id: token.userID) else {
                    // The user is gone: roll the rotation back and refuse.
                    throw OAuthError.invalidRefreshToken("refresh_user_gone")
                }
                return .rotated(presented: token, user: user, newToken: replacement.value)
            case .reused: return .refused(logCode: "refresh_reused")
            case .notFound: return .refused(logCode: "refresh_unknown")
            case .expired: return .refused(logCode: "refresh_expired")
            case .revoked: return .refused(logCode: "refresh_revoked")
            }
        }
        switch outcome {
        case .refused(let logCode):
            if logCode == "refresh_reused" { context.metrics.count(event: "refresh_token_reuse") }
            throw OAuthError.invalidRefreshToken(logCode)
        case .rotated(let token, let user, let newToken):
            guard let granted = Scope(parsing: token.scope) else { throw OAuthError.bug("stored scope does not parse") }
            var scope = granted
            if let requestedScope {
                // RFC 6749 §6: a narrower scope may be asked for, never a wider one.
                guard requestedScope.tokens.allSatisfy(granted.contains) else {
                    throw OAuthError(
                        .invalidScope, "The requested scope exceeds the granted scope.", logCode: "scope_widened")
                }
                scope = requestedScope
            }
            return try await context.tokens.tokenResponse(
                for: TokenService.Grant(
                    user: user, clientID: clientID, scope: scope,
                    audience: try parameters.optionalString("audience", maxLength: 512), authTime: token.authTime,
                    authenticationMethods: ["hwk"]),
                refreshToken: newToken, now: now)
        }
    }
}
