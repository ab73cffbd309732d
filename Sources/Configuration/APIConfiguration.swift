/// An API (Auth0's "resource server"): the audience a client may ask tokens for (RFC 8707 §2, Auth0's `audience`),
/// the scopes it defines and how its access tokens are made.
public struct APIConfiguration: Sendable, Equatable {
    /// One permission the API defines.
    public struct Scope: Sendable, Equatable {
        /// The scope token (RFC 6749 §3.3), e.g. `read:payments`.
        public var value: String
        /// What it allows, for people.
        public var description: String

        package init(value: String, description: String) {
            self.value = value
            self.description = description
        }
    }

    /// The `aud` of its access tokens, and the `audience` a request names.
    public var identifier: String
    public var name: String
    /// The scopes beyond the OIDC ones (`openid profile email phone offline_access`, always allowed) that a client
    /// may be granted for this API.
    public var scopes: [Scope]
    /// `expires_in` of its access tokens, in seconds.
    public var accessTokenLifetime: Int
    /// How its access tokens are signed.
    public var signingAlgorithm: TokenSigningAlgorithm
    /// Whether a login for this API may get a refresh token (Auth0's "Allow Offline Access"); without it
    /// `offline_access` is not granted.
    public var allowsOfflineAccess: Bool
    /// The confidential clients that may introspect this API's access tokens (`introspection_clients`, RFC 7662
    /// §2.1): the API's resource servers, checking a token's revocation as passkeyd's own endpoints do.
    public var introspectionClients: [String] = []

    package init(
        identifier: String, name: String, scopes: [Scope], accessTokenLifetime: Int,
        signingAlgorithm: TokenSigningAlgorithm, allowsOfflineAccess: Bool
    ) {
        self.identifier = identifier
        self.name = name
        self.scopes = scopes
        self.accessTokenLifetime = accessTokenLifetime
        self.signingAlgorithm = signingAlgorithm
        self.allowsOfflineAccess = allowsOfflineAccess
    }

    /// The OIDC scopes (OIDC Core §5.4, §11): about the user and the session, granted for every API.
    public static let oidcScopes = ["openid", "profile", "email", "phone", "offline_access"]

    /// Whether the API defines `scope`.
    public func defines(_ scope: String) -> Bool { scopes.contains { $0.value == scope } }
}

/// A client grant (Auth0's `client_grants`): the client may ask for tokens for the API `audience`, with at most
/// `scopes` of the API's own scopes.
public struct ClientGrant: Sendable, Equatable {
    public var clientID: String
    public var audience: String
    public var scopes: [String]
}
