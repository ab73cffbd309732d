import Foundation
import Storage

/// The grant a token response is minted for.
extension TokenService {
    /// What a successful grant authorises.
    package struct Grant: Sendable {
        /// The subject (its profile feeds the ID token claims).
        package let user: User
        package let clientID: String
        /// The API and the scope granted (`ResourceAuthorization`).
        package let access: AuthorizedAccess
        /// When the user authenticated with a passkey.
        package let authTime: Date
        /// RFC 8176 authentication methods.
        package let authenticationMethods: [String]
        /// The RFC 7638 thumbprint of the DPoP key the tokens are bound to (RFC 9449 §6.1), if any.
        package var dpopThumbprint: String? = nil
        /// The login session the access token belongs to (`sid`): its refresh-token family's id when it has one
        /// (passkeyd's own endpoints refuse the token once that family is revoked), nil for a token of no session
        /// (a recovery token).
        package var sessionID: String? = nil
        /// Whether the login itself mints these tokens (not the refresh grant): its access token's `jti` is then the
        /// session id, which is how `FreshLoginRequirement` tells the login's token from one a refresh mints in the
        /// same second.
        package var isLogin = false
        /// The organization the login was made in (`org_id`), if any.
        package var organizationID: String? = nil
        /// Its name: `org_name` when `allow_organization_name_in_authentication_api` is on.
        package var organizationName: String? = nil
        /// The authorization request's `nonce` (OIDC Core §3.1.2.1), echoed in the ID token (the code grant).
        package var nonce: String? = nil

        /// Creates the value from its stored properties.
        package init(
            user: User, clientID: String, access: AuthorizedAccess, authTime: Date, authenticationMethods: [String],
            dpopThumbprint: String? = nil, sessionID: String? = nil, isLogin: Bool = false,
            organizationID: String? = nil, organizationName: String? = nil
        ) {
            self.user = user
            self.clientID = clientID
            self.access = access
            self.authTime = authTime
            self.authenticationMethods = authenticationMethods
            self.dpopThumbprint = dpopThumbprint
            self.sessionID = sessionID
            self.isLogin = isLogin
            self.organizationID = organizationID
            self.organizationName = organizationName
        }
    }
}
