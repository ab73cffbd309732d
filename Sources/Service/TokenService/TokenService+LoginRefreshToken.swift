import Configuration
import Foundation
import Storage

extension TokenService {
    /// Whether a login of `client` for `access` gets a refresh token (OIDC Core §11, or the client's setting), never
    /// for an API that does not allow offline access.
    package static func issuesRefreshToken(client: ClientConfiguration, access: AuthorizedAccess) -> Bool {
        guard client.allows(.refreshToken), access.api.allowsOfflineAccess else { return false }
        switch client.refreshTokens {
        case .always: return true
        case .never: return false
        case .offlineAccess: return access.scope.contains("offline_access")
        }
    }

    /// A new refresh token for a fresh login of `userID` whose `amr` is `authenticationMethods`, when the client and
    /// the access call for one (`issuesRefreshToken`): the first of the family `familyID` (the login's session), with
    /// the login's instant `now` as `auth_time` and the policy's first expiry. Bound to `dpopThumbprint` when the
    /// login carried a DPoP proof (RFC 9449 §5: a public client's refresh token is bound to the key of the login's
    /// proof). The family keeps the login's organization (`organizationID`), if any. Every grant that logs a user
    /// in (passkey, SRP-6a) mints its refresh token here.
    package func loginRefreshToken(
        userID: String, client: ClientConfiguration, access: AuthorizedAccess, familyID: String, now: Date,
        authenticationMethods: [String], dpopThumbprint: String?, organizationID: String? = nil
    ) throws -> (value: String, record: Storage.RefreshToken)? {
        guard Self.issuesRefreshToken(client: client, access: access) else { return nil }
        return try newRefreshToken(
            familyID: familyID, clientID: client.clientID, userID: userID, scope: access.scope.text,
            audience: access.api.identifier, authTime: now, authenticationMethods: authenticationMethods, now: now,
            expiry: refreshPolicy.firstExpiry(issuedAt: now), dpopThumbprint: dpopThumbprint,
            organizationID: organizationID)
    }
}
