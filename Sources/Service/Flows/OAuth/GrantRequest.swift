import Foundation
import Storage

/// A login grant's parameters once its session is settled (the passkey grant's sign-up and login, the SRP-6a grant):
/// what the tokens are minted for.
package struct GrantRequest: Sendable {
    package let client: ClientConfiguration
    /// The API and scope granted (`ResourceAuthorization`).
    package let access: AuthorizedAccess
    package let now: Date
    /// The thumbprint of the request's DPoP key (RFC 9449 §5), to which the tokens are bound.
    package let dpopThumbprint: String?
    /// The login's session: the access token's `sid` and, when a refresh token is issued, its family's id.
    package let sessionID: String

    /// The request of a session opened by `sessionClientID` in `sessionRealm`, for any kind of session (passkey or
    /// SRP): the session must be `client`'s, and of the realm the request names (`realmName`), if any.
    /// - Throws: 403 `invalid_grant` (`session_other_client`, `session_other_realm`).
    package init(
        sessionClientID: String, sessionRealm: String, realmName: String?, client: ClientConfiguration,
        access: AuthorizedAccess, now: Date, dpop: String?
    ) throws {
        guard sessionClientID == client.clientID else {
            throw OAuthError.invalidSession("session_other_client", reason: "session of \(sessionClientID)")
        }
        if let realmName, realmName != sessionRealm {
            throw OAuthError.invalidSession("session_other_realm", reason: "session of realm \(sessionRealm)")
        }
        self.client = client
        self.access = access
        self.now = now
        self.dpopThumbprint = dpop
        // UUIDv7 family ids append to the family index instead of dirtying a random leaf (TimeOrderedIdentifier).
        self.sessionID = try TimeOrderedIdentifier.make(now: now)
    }

    /// The request of a passkey `session` (the rule above).
    package init(
        _ session: AuthSession, realmName: String?, client: ClientConfiguration, access: AuthorizedAccess, now: Date,
        dpop: String?
    ) throws {
        try self.init(
            sessionClientID: session.clientID, sessionRealm: session.realm, realmName: realmName, client: client,
            access: access, now: now, dpop: dpop)
    }
}

extension TokenService {
    /// A new refresh token for a fresh login whose `amr` is `authenticationMethods`, when the client and scope call
    /// for one: the first of the family `request.sessionID`.
    package func loginRefreshToken(user: User, request: GrantRequest, authenticationMethods: [String]) throws -> (
        value: String, record: Storage.RefreshToken
    )? {
        guard Self.issuesRefreshToken(client: request.client, access: request.access) else { return nil }
        return try newRefreshToken(
            familyID: request.sessionID, clientID: request.client.clientID,
            userID: user.id, scope: request.access.scope.text, audience: request.access.api.identifier,
            authTime: request.now, authenticationMethods: authenticationMethods, now: request.now,
            expiry: refreshPolicy.firstExpiry(issuedAt: request.now),
            // RFC 9449 §5: a public client's refresh token is bound to the key of the login's proof.
            dpopThumbprint: request.dpopThumbprint)
    }
}
