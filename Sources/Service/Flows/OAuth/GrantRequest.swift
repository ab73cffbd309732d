import Configuration
import Foundation
import Storage

/// A login grant's parameters once its session is settled (the passkey grant's sign-up and login): what the tokens
/// are minted for.
package struct GrantRequest: Sendable {
    package let client: ClientConfiguration
    /// The API and scope granted (`ResourceAuthorization`).
    package let access: AuthorizedAccess
    package let now: Date
    /// The thumbprint of the request's DPoP key (RFC 9449 §5), to which the tokens are bound.
    package let dpopThumbprint: String?
    /// The login's session: the access token's `sid` and, when a refresh token is issued, its family's id.
    package let sessionID: String
    /// The organization the login is made in (the session's), if any: the tokens' `org_id`, kept by the refresh
    /// token's family.
    package let organizationID: String?
    /// That organization's name (`org_name`, when the server allows it).
    package let organizationName: String?

    /// The request of a session opened by `sessionClientID` in `sessionRealm`: the session must be `client`'s, and
    /// of the realm the request names (`realmName`), if any (`SessionOwnership`).
    /// - Throws: 403 `invalid_grant` (`session_other_client`, `session_other_realm`).
    package init(
        sessionClientID: String, sessionRealm: String, realmName: String?, client: ClientConfiguration,
        access: AuthorizedAccess, now: Date, dpop: String?, organizationID: String? = nil,
        organizationName: String? = nil
    ) throws {
        try SessionOwnership.check(
            sessionClientID: sessionClientID, sessionRealm: sessionRealm, client: client, realmName: realmName)
        self.client = client
        self.access = access
        self.now = now
        self.dpopThumbprint = dpop
        self.organizationID = organizationID
        self.organizationName = organizationName
        // UUIDv7 family ids append to the family index instead of dirtying a random leaf (TimeOrderedIdentifier).
        self.sessionID = try TimeOrderedIdentifier.make(now: now)
    }

    /// The request of a passkey `session` (the rule above), in the session's organization, if any.
    package init(
        _ session: AuthSession, realmName: String?, client: ClientConfiguration, access: AuthorizedAccess, now: Date,
        dpop: String?
    ) throws {
        try self.init(
            sessionClientID: session.clientID, sessionRealm: session.realm, realmName: realmName, client: client,
            access: access, now: now, dpop: dpop, organizationID: session.organizationID,
            organizationName: session.organizationName)
    }

    /// The login's first refresh token for `user`, whose `amr` is `authenticationMethods`, when the client and scope
    /// call for one (`TokenService.loginRefreshToken`): the first of the family `sessionID`.
    package func refreshToken(for user: User, authenticationMethods: [String], tokens: TokenService) throws -> (
        value: String, record: Storage.RefreshToken
    )? {
        try tokens.loginRefreshToken(
            userID: user.id, client: client, access: access, familyID: sessionID, now: now,
            authenticationMethods: authenticationMethods, dpopThumbprint: dpopThumbprint,
            organizationID: organizationID)
    }
}
