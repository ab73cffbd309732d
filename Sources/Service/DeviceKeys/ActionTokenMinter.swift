import DeviceKeys
import Foundation
import JSON
import Tokens

/// Mints the action token of a verified approval: an ES256 JWT (`typ` `action+jwt`) signed with the same keys
/// as the other tokens and published in the same JWKS, so a payment API can check it offline.
///
/// It accepts only a `VerifiedApproval` (STYLE.md type-state): nothing else can buy an action token.
package struct ActionTokenMinter: Sendable {
    package let context: ServerContext

    /// The lifetime: `tokens.action_token_lifetime_seconds`, never more than five minutes
    /// (`ActionTokenClaims.maximumLifetime`): the token buys one action, right after its approval.
    package var lifetime: Int {
        min(context.configuration.tokens.actionTokenLifetime, Int(ActionTokenClaims.maximumLifetime))
    }

    /// 200 `{action_token, token_type: "Bearer", expires_in, authorization_details: [action]}`.
    package func response(for approval: VerifiedApproval, subject: AuthenticatedSubject, now: Date) async throws
        -> TokenResponse
    {
        let claims = ActionTokenClaims(
            issuer: context.configuration.issuer, subject: approval.document.subject,
            // RFC 9068 §3: the issuer's own API audience, as for access tokens without an `audience` parameter.
            audience: context.tokens.defaultAudience, clientID: subject.clientID,
            jwtID: try TokenService.randomIdentifier(), issuedAt: now,
            expiresAt: now.addingTimeInterval(TimeInterval(lifetime)),
            // RFC 9396 §2: the approved action, byte for byte its canonical form (what the device's hash covered).
            authorizationDetail: approval.action.canonicalBytes, deviceKeyID: approval.document.keyID)
        let token = try await context.tokens.currentRing().signer.sign(claims)
        return TokenResponse(members: [
            JSONMember(key: "action_token", value: .string(token)),
            JSONMember(key: "token_type", value: "Bearer"),
            JSONMember(key: "expires_in", value: JSONValue(lifetime)),
            JSONMember(key: "authorization_details", value: [try JSONValue(parsing: approval.action.canonicalBytes)]),
        ])
    }

    /// Creates the value from its stored properties.
    package init(context: ServerContext) {
        self.context = context
    }
}
