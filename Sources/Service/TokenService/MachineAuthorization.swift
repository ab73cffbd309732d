import Configuration

/// The access a client asks for by itself (RFC 6749 §4.4, Auth0's machine-to-machine applications): an API of
/// `apis` that a client grant (`client_grants`) gives the client, with scopes of that grant only.
///
/// - the audience is the request's `audience`, else `default_audience`; it must be one of `apis`: the issuer's API,
///   the device-key API and the account API are a user's, and a machine is no user (`access_denied`);
/// - the client must have a client grant for it (`access_denied`, as for a login: `ResourceAuthorization`);
/// - without `scope`, every scope of the grant (Auth0); with one, each scope must be the grant's, else
///   `access_denied` naming those it is not granted (Auth0's answer), the OIDC scopes included: they are a user's.
package struct MachineAuthorization: Sendable {
    package let configuration: ServerConfiguration

    package init(configuration: ServerConfiguration) {
        self.configuration = configuration
    }

    /// The access `client` asks for.
    /// - Throws: 400 `invalid_request` without an audience (the default one being a user's API); 403
    ///   `access_denied` for an audience that is no configured API, or not granted, or a scope outside the grant;
    ///   `invalid_scope` for a malformed scope.
    package func authorize(client: ClientConfiguration, audience requested: String?, scope requestedScope: String?)
        throws -> AuthorizedAccess
    {
        let audience = requested ?? configuration.defaultAudience
        guard let api = configuration.configuredAPI(identifier: audience) else {
            if requested == nil {
                throw OAuthError(
                    .invalidRequest, "An audience is required: one of the configured APIs.",
                    logCode: "machine_audience_missing")
            }
            throw OAuthError(
                .accessDenied, "Service not found: \(audience)", logCode: "machine_audience_unknown",
                reason: "\(client.clientID): \(audience.prefix(128)) is no configured API (a user's API, or none)")
        }
        guard let grant = configuration.clientGrant(clientID: client.clientID, audience: api.identifier) else {
            throw OAuthError(
                .accessDenied, "Client is not authorized to access \"\(api.identifier)\".",
                logCode: "audience_not_granted", reason: "\(client.clientID) has no grant for \(api.identifier)")
        }
        // The one rule on an API's scopes (`mayGrant`): defined by the API and listed in the client's grant.
        let granted = grant.scopes.filter {
            configuration.mayGrant(apiScope: $0, of: api, to: client.clientID)
        }
        guard let requestedScope else {
            return AuthorizedAccess(api: api, scope: .configured(granted))
        }
        guard let scope = Scope(parsing: requestedScope) else {
            throw OAuthError(.invalidScope, "The scope is malformed.", logCode: "scope_malformed")
        }
        let refused = scope.tokens.filter { !granted.contains($0) }
        guard refused.isEmpty else {
            throw OAuthError(
                .accessDenied, "Client has not been granted scopes: \(refused.joined(separator: ", "))",
                logCode: "machine_scope_not_granted", reason: "\(client.clientID) for \(api.identifier)")
        }
        return AuthorizedAccess(api: api, scope: scope)
    }
}
