extension ServerConfiguration {
    /// Reads a client's `refresh_token_policies` (Auth0's `refresh_token.policies`, multi-resource refresh tokens):
    /// `[{"audience": "https://billing.example.com", "scope": ["read:billing"]}]`, one policy per audience.
    static func readRefreshTokenPolicies(_ client: ConfigObject) throws(ConfigurationError)
        -> [ClientConfiguration.RefreshTokenPolicy]
    {
        var policies: [ClientConfiguration.RefreshTokenPolicy] = []
        for object in try client.objectArray("refresh_token_policies") {
            let audience = try object.string("audience")
            guard isAudience(audience) else {
                throw object.error("audience", "must be 1 to 512 visible ASCII characters, a URI when it has a colon")
            }
            guard !policies.contains(where: { $0.audience == audience }) else {
                throw object.error("audience", "\"\(audience)\" has two policies")
            }
            policies.append(.init(audience: audience, scopes: try object.stringArray("scope")))
            try object.rejectUnknownKeys()
        }
        return policies
    }

    /// Checks every client's refresh token policies against the APIs and the client grants: a policy names an API
    /// the client may ask for at all (one open to every client, `isOpenToEveryClient`, or one it has a client grant
    /// for), and only scopes within that grant (Auth0: "equal to or narrower than" what
    /// the client may have), so that an exchange never grants more than a login of the client could.
    package func checkRefreshTokenPolicies() throws(ConfigurationError) {
        for (index, client) in clients.enumerated() {
            for (position, policy) in client.refreshTokenPolicies.enumerated() {
                let field = "clients[\(index)].refresh_token_policies[\(position)]"
                guard let api = api(identifier: policy.audience) else {
                    throw ConfigurationError(
                        field: "\(field).audience",
                        reason: "\"\(policy.audience)\" is not the issuer, a built-in audience or one of apis")
                }
                let grant = clientGrant(clientID: client.clientID, audience: api.identifier)
                guard isOpenToEveryClient(api.identifier) || grant != nil else {
                    throw ConfigurationError(
                        field: "\(field).audience",
                        reason: "\(client.clientID) has no client grant for \"\(api.identifier)\"")
                }
                for (scopeIndex, scope) in policy.scopes.enumerated()
                where !mayGrant(apiScope: scope, of: api, to: client.clientID) {
                    throw ConfigurationError(
                        field: "\(field).scope[\(scopeIndex)]",
                        reason: "\"\(scope)\" is not a scope \(client.clientID) may be granted for \(api.identifier)")
                }
            }
        }
    }
}
