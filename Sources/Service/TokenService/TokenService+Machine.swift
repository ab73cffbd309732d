import Foundation
import JSON
import Tokens

/// Minting for a client acting for itself (RFC 6749 §4.4, `ClientCredentialsGrant`).
extension TokenService {
    /// `sub` of a machine's access token: `<client_id>@clients`, Auth0's spelling, which no user id has.
    package static func machineSubject(clientID: String) -> String { "\(clientID)@clients" }

    /// The token response of a client credentials grant (RFC 6749 §4.4.3): an access token for `access`'s API
    /// (RFC 9068: `sub` the client's machine subject, `client_id`, `gty: client-credentials`, no `auth_time`, `amr` or
    /// `sid`; `cnf.jkt` when DPoP-bound), `scope`, `expires_in` and `token_type`; no refresh token ("SHOULD NOT be
    /// included") and no ID token (no user signed in).
    package func machineTokenResponse(
        clientID: String, access: AuthorizedAccess, now: Date, dpopThumbprint: String?
    ) async throws -> TokenResponse {
        let api = access.api
        var claims = AccessTokenClaims(
            issuer: configuration.issuer, subject: Self.machineSubject(clientID: clientID),
            audience: [api.identifier], clientID: clientID, scope: access.scope.tokens, issuedAt: now,
            expiresAt: now.addingTimeInterval(TimeInterval(api.accessTokenLifetime)),
            jwtID: try Self.randomIdentifier(), confirmationThumbprint: dpopThumbprint)
        claims.grantType = "client-credentials"
        let token = try await currentSigners().signer(api.signingAlgorithm).sign(claims)
        return TokenResponse(members: [
            JSONMember(key: "access_token", value: .string(token)),
            JSONMember(key: "scope", value: .string(access.scope.text)),
            JSONMember(key: "expires_in", value: .number(String(api.accessTokenLifetime))),
            // RFC 9449 §5: a bound access token is of type DPoP.
            JSONMember(key: "token_type", value: .string(dpopThumbprint == nil ? "Bearer" : "DPoP")),
        ])
    }
}
