import Foundation

extension ServerConfiguration {
    /// The issuer's own API: the audience of `/userinfo`, with the OIDC scopes only. Every client may ask for it.
    public var issuerAPI: APIConfiguration {
        APIConfiguration(
            identifier: issuer, name: "\(relyingParty.name) (userinfo)", scopes: [],
            accessTokenLifetime: tokens.accessTokenLifetime, signingAlgorithm: tokens.accessTokenSigningAlgorithm,
            allowsOfflineAccess: true)
    }

    /// The device-key API (`device_keys.audience`): the audience the device-key endpoints require, with the OIDC
    /// scopes only. Every client may ask for it (the app that logs in is the app that enrols its key).
    public var deviceKeyAPI: APIConfiguration {
        APIConfiguration(
            identifier: deviceKeys.audience, name: "\(relyingParty.name) (device keys)", scopes: [],
            accessTokenLifetime: tokens.accessTokenLifetime, signingAlgorithm: tokens.accessTokenSigningAlgorithm,
            allowsOfflineAccess: true)
    }

    /// The account API (`<issuer>me/`, the shape of Auth0's My Account API): the only audience passkeyd's account
    /// management (`/me/…`) accepts. A client asks for it explicitly with `audience`; it is never a default
    /// audience and never added to another API's token, so a token minted for an API cannot manage the account. It
    /// defines Auth0's My Account API scopes (`AccountAPIScope`).
    public var accountAPI: APIConfiguration {
        APIConfiguration(
            identifier: accountAudience, name: "\(relyingParty.name) (account)",
            scopes: AccountAPIScope.allCases.map(\.apiScope),
            accessTokenLifetime: tokens.accessTokenLifetime, signingAlgorithm: tokens.accessTokenSigningAlgorithm,
            allowsOfflineAccess: true)
    }

    /// `<issuer>me/`: the account API's identifier (the issuer ends with `/`).
    public var accountAudience: String { Self.accountAudience(issuer: issuer) }

    /// The account audience of `issuer`.
    package static func accountAudience(issuer: String) -> String { issuer + "me/" }

    /// The audience of the restricted token of a recovery (`RecoveryToken`): `<issuer>recovery` (the issuer ends with
    /// `/`), reserved like the built-in APIs'.
    package static func recoveryAudience(issuer: String) -> String { issuer + "recovery" }

    /// The API whose identifier is `audience`: the issuer's, the device-key API, the account API, or one of `apis`.
    public func api(identifier audience: String) -> APIConfiguration? {
        if audience == issuer { return issuerAPI }
        if audience == deviceKeys.audience { return deviceKeyAPI }
        if audience == accountAudience { return accountAPI }
        return configuredAPI(identifier: audience)
    }

    /// The API of `apis` whose identifier is `audience`, never a built-in one (the issuer's, the device-key and the
    /// account API: a user's APIs).
    public func configuredAPI(identifier audience: String) -> APIConfiguration? {
        apis.first { $0.identifier == audience }
    }

    /// Whether every client may ask for the API `audience`, with all of its scopes, without a client grant: the
    /// issuer's (`/userinfo`) and the device-key API (the app that logs in is the app that enrols its key) always; the
    /// account API under `account_api_access_policy: allow_all` (the default), not under `require_client_grant`
    /// (Auth0's My Account API default). The one rule behind a login's audience and scope and a refresh token policy's check.
    package func isOpenToEveryClient(_ audience: String) -> Bool {
        audience == issuer || audience == deviceKeys.audience
            || (audience == accountAudience && accountAPIAccessPolicy == .allowAll)
    }

    /// Resolves each client's `password_login_audiences`: empty (the default) is the issuer's own API (`/userinfo`)
    /// only; every entry must be the issuer or a configured API, and never one of `forbidden` (the device-key and
    /// account audiences: a password alone never buys a device key or account management, docs/password-fallback.md).
    package static func resolvingPasswordLoginAudiences(
        _ clients: [ClientConfiguration], issuer: String, apis: [APIConfiguration], forbidden: [String]
    ) throws(ConfigurationError) -> [ClientConfiguration] {
        var resolved: [ClientConfiguration] = []
        for (index, var client) in clients.enumerated() {
            let field = "clients[\(index)].password_login_audiences"
            for (position, audience) in client.passwordLoginAudiences.enumerated() {
                guard !forbidden.contains(audience) else {
                    throw ConfigurationError(
                        field: "\(field)[\(position)]",
                        reason:
                            "\"\(audience)\" is the device-key or account audience, which a password login never gets")
                }
                guard audience == issuer || apis.contains(where: { $0.identifier == audience }) else {
                    throw ConfigurationError(
                        field: "\(field)[\(position)]", reason: "\"\(audience)\" is not the issuer or one of apis")
                }
            }
            if client.passwordLoginAudiences.isEmpty { client.passwordLoginAudiences = [issuer] }
            resolved.append(client)
        }
        return resolved
    }

    /// The grant of `clientID` for the API `audience`, if configured (`client_grants`).
    public func clientGrant(clientID: String, audience: String) -> ClientGrant? {
        clientGrants.first { $0.clientID == clientID && $0.audience == audience }
    }

    /// Whether `clientID` may be granted the API scope `scope` of `api`: the API defines it, and it is listed in the
    /// client's grant for the API, or the API is open to every client (`isOpenToEveryClient`: the account API's
    /// `AccountAPIScope` under `allow_all`). The one rule behind a login's scope and a refresh token policy's
    /// (`checkRefreshTokenPolicies`).
    package func mayGrant(apiScope scope: String, of api: APIConfiguration, to clientID: String) -> Bool {
        guard api.defines(scope) else { return false }
        if isOpenToEveryClient(api.identifier) { return true }
        return clientGrant(clientID: clientID, audience: api.identifier)?.scopes.contains(scope) == true
    }

    /// The longest access-token lifetime of any API, in seconds (how long a retired signing key stays published).
    package var longestAccessTokenLifetime: Int {
        ([tokens.accessTokenLifetime] + apis.map(\.accessTokenLifetime)).max() ?? 0
    }

    /// Reads `apis`: each API's identifier is unique and none is the issuer or the device-key audience (those two
    /// are built in). An API without `signing_alg` signs with `defaultAlgorithm` (`tokens.access_token_signing_alg`).
    package static func readAPIs(
        _ root: ConfigObject, reserved: [String], defaultLifetime: Int, defaultAlgorithm: TokenSigningAlgorithm,
        clients: [ClientConfiguration] = []
    )
        throws(ConfigurationError)
        -> [APIConfiguration]
    {
        var apis: [APIConfiguration] = []
        for object in try root.value(Settings.apis) {
            let identifier = try object.string("identifier")
            guard isAudience(identifier) else {
                throw object.error(
                    "identifier", "must be 1 to 512 visible ASCII characters, a URI when it has a colon")
            }
            guard !reserved.contains(identifier) else {
                throw object.error(
                    "identifier",
                    "the issuer, device_keys.audience, <issuer>me/ and <issuer>recovery are passkeyd's own audiences")
            }
            guard !apis.contains(where: { $0.identifier == identifier }) else {
                throw object.error("identifier", "\"\(identifier)\" is defined twice")
            }
            var scopes: [APIConfiguration.Scope] = []
            for scopeObject in try object.objectArray("scopes") {
                let value = try scopeObject.string("value")
                guard isScopeToken(value), !APIConfiguration.oidcScopes.contains(value) else {
                    throw scopeObject.error("value", "must be a scope token (RFC 6749 §3.3) other than an OIDC scope")
                }
                guard !scopes.contains(where: { $0.value == value }) else {
                    throw scopeObject.error("value", "\"\(value)\" is defined twice")
                }
                scopes.append(.init(value: value, description: try scopeObject.string("description", default: "")))
                try scopeObject.rejectUnknownKeys()
            }
            let algorithmText = try object.string("signing_alg", default: defaultAlgorithm.rawValue)
            guard let algorithm = TokenSigningAlgorithm(rawValue: algorithmText) else {
                throw object.error("signing_alg", "must be ES256 or RS256")
            }
            var api = APIConfiguration(
                identifier: identifier, name: try object.string("name", default: identifier), scopes: scopes,
                accessTokenLifetime: try object.int(
                    "access_token_lifetime_seconds", default: defaultLifetime, range: 60...86_400),
                signingAlgorithm: algorithm,
                allowsOfflineAccess: try object.bool("allow_offline_access", default: true))
            // RFC 7662 §2.1: who may introspect this API's tokens: its resource servers, each a confidential client.
            api.introspectionClients = try object.stringArray("introspection_clients")
            for (index, clientID) in api.introspectionClients.enumerated()
            where clients.first(where: { $0.clientID == clientID })?.isConfidential != true {
                throw object.error(
                    "introspection_clients[\(index)]",
                    "\"\(clientID)\" is not a configured confidential client (one with client_secret_sha256)")
            }
            apis.append(api)
            try object.rejectUnknownKeys()
        }
        return apis
    }

    /// Reads `client_grants`: each names a configured client and a configured API or the account API
    /// (`accountAudience`), at most once, and only scopes that API defines (the account API's: `AccountAPIScope`).
    package static func readClientGrants(
        _ root: ConfigObject, clients: [ClientConfiguration], apis: [APIConfiguration], accountAudience: String
    ) throws(ConfigurationError) -> [ClientGrant] {
        var grants: [ClientGrant] = []
        for object in try root.value(Settings.clientGrants) {
            let clientID = try object.string("client_id")
            guard clients.contains(where: { $0.clientID == clientID }) else {
                throw object.error("client_id", "\"\(clientID)\" is not a configured client")
            }
            let audience = try object.string("audience")
            let scopesOfAPI: [String]
            if audience == accountAudience {
                scopesOfAPI = AccountAPIScope.allCases.map(\.rawValue)
            } else if let api = apis.first(where: { $0.identifier == audience }) {
                scopesOfAPI = api.scopes.map(\.value)
            } else {
                throw object.error(
                    "audience",
                    "\"\(audience)\" is not the identifier of one of apis or the account API \(accountAudience)")
            }
            let scopes = try object.stringArray("scopes")
            for (index, scope) in scopes.enumerated() where !scopesOfAPI.contains(scope) {
                throw object.error("scopes[\(index)]", "\"\(scope)\" is not a scope of \(audience)")
            }
            guard !grants.contains(where: { $0.clientID == clientID && $0.audience == audience }) else {
                throw object.error("audience", "\(clientID) already has a grant for \(audience)")
            }
            grants.append(ClientGrant(clientID: clientID, audience: audience, scopes: scopes))
            try object.rejectUnknownKeys()
        }
        return grants
    }

    /// `default_audience` (Auth0's tenant setting): the API of a request that names none; empty for the issuer's.
    package static func readDefaultAudience(_ root: ConfigObject, known: [String]) throws(ConfigurationError) -> String?
    {
        let text = try root.value(Settings.defaultAudience)
        guard !text.isEmpty else { return nil }
        guard known.contains(text) else {
            throw root.error("default_audience", "\"\(text)\" is not the issuer, device_keys.audience or one of apis")
        }
        return text
    }

    /// An API identifier: RFC 5234 VCHAR (%x21-7E), at most 512 bytes, and a URI when it has a colon (RFC 7519 §2
    /// StringOrURI). The same rule as the `audience` parameter.
    package static func isAudience(_ text: String) -> Bool {
        guard !text.isEmpty, text.utf8.count <= 512, text.utf8.allSatisfy({ (0x21...0x7E).contains($0) }) else {
            return false
        }
        if text.contains(":") {
            guard let uri = URLComponents(string: text), let scheme = uri.scheme, !scheme.isEmpty else { return false }
        }
        return true
    }

    /// One RFC 6749 §3.3 scope-token, by the `scope` parameter's own parser (`Scope`), at most 128 bytes.
    package static func isScopeToken(_ text: String) -> Bool {
        text.utf8.count <= 128 && Scope(parsing: text)?.tokens == [text]
    }
}

extension ServerConfiguration {
    /// The URL of the issuer's endpoint at `path` (`/oauth/token`): the issuer with the path appended (OIDC Discovery
    /// §4.1), as discovery lists it and as a DPoP proof's `htu` names it.
    package func url(of path: String) -> String {
        (issuer.hasSuffix("/") ? String(issuer.dropLast()) : issuer) + path
    }
}
