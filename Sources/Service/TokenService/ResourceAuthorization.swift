import Configuration

/// What a grant authorises: one API (the access token's audience) and the scope granted for it.
package struct AuthorizedAccess: Sendable, Equatable {
    /// The API the access token is for.
    package let api: APIConfiguration
    /// The granted scope: the requested one intersected with what the client may have.
    package let scope: Scope
}

/// The one rule on audiences and scopes (Auth0's APIs and client grants), for every grant that mints tokens
/// (webauthn, srp6a, refresh_token):
/// - the audience is the request's `audience`, else `default_audience`, else the issuer's API;
/// - it must be an API, and one the client may use: the issuer's, the device-key API and (under
///   `account_api_access_policy: allow_all`, the default) the account API `<issuer>me/` for every client; a
///   configured API, and the account API under `require_client_grant`, only with a client grant (`client_grants`);
///   otherwise 403 `access_denied`, as Auth0 answers;
/// - a password login (`amr` `pwd`, the SRP-6a grant and every refresh of its family) only for an audience of the
///   client's `password_login_audiences` (by default the issuer's, for `/userinfo`): never the device-key or account
///   API (docs/password-fallback.md);
/// - the scope granted is the requested one intersected with the OIDC scopes (`offline_access` only when the API
///   allows offline access) and the API's scopes the client's grant lists (an API open to every client needs none);
///   the response's `scope` says which.
package struct ResourceAuthorization: Sendable {
    package let configuration: ServerConfiguration

    /// The access a login asks for.
    /// - Throws: 403 `access_denied` for an audience that is no API or one the client has no grant for.
    package func authorize(
        client: ClientConfiguration, audience requested: String?, scope: Scope, passwordLogin: Bool = false
    ) throws -> AuthorizedAccess {
        let audience = requested ?? configuration.defaultAudience
        guard let api = configuration.api(identifier: audience) else {
            // Auth0: "Service not found: <audience>".
            throw OAuthError(
                .accessDenied, "Service not found: \(audience)", logCode: "audience_unknown",
                reason: String(audience.prefix(128)))
        }
        // The password rule first: a password login is refused the device-key and account APIs whatever else holds.
        if passwordLogin, !client.passwordLoginAudiences.contains(api.identifier) {
            throw OAuthError(
                .accessDenied, "A password login cannot be used for \"\(api.identifier)\".",
                logCode: "audience_not_for_password", reason: "\(client.clientID) password login for \(api.identifier)")
        }
        let open = configuration.isOpenToEveryClient(api.identifier)
        let grant = configuration.clientGrant(clientID: client.clientID, audience: api.identifier)
        guard open || grant != nil else {
            throw OAuthError(
                .accessDenied, "Client is not authorized to access \"\(api.identifier)\".",
                logCode: "audience_not_granted", reason: "\(client.clientID) has no grant for \(api.identifier)")
        }
        let granted = scope.filter { token in
            if token == "offline_access" { return api.allowsOfflineAccess }
            if APIConfiguration.oidcScopes.contains(token) { return true }
            return configuration.mayGrant(apiScope: token, of: api, to: client.clientID)
        }
        return AuthorizedAccess(api: api, scope: granted)
    }

    /// The access a refresh asks for, within the family's original grant (RFC 6749 §6: never wider): the same API,
    /// or the issuer's when `openid` was granted (the audience the original tokens named too), and a scope within
    /// the original one; then the rule above again, with the family's login methods (`loginMethods`, the `amr` its
    /// login had), so a grant or a password audience removed since then narrows or refuses the refresh. A family
    /// whose login methods are unknown (stored before they were, schema v12) may not refresh for the device-key API:
    /// it may have been a password login.
    ///
    /// The client's refresh token policy for the audience (multi-resource refresh tokens, Auth0's
    /// `refresh_token.policies`) widens this as Auth0 does: another API than the login's may be asked for, with the
    /// policy's scopes and the OIDC scopes of the original grant; for the login's own API the policy's scopes are
    /// added to the original ones. Under a policy a scope beyond these is left out of the answer, as Auth0 ignores
    /// it ("invalid or unauthorized scopes requested are silently ignored"); without `scope`, all of them are asked
    /// for. The family itself keeps its original grant.
    /// - Throws: 403 `access_denied` for another audience without a policy, `invalid_scope` for a wider scope without
    ///   one, `invalid_grant` for a device-key refresh of a family of unknown login.
    package func reauthorize(
        client: ClientConfiguration, grantedAudience: String, grantedScope: Scope, audience requested: String?,
        scope requestedScope: Scope?, loginMethods: [String]?
    ) throws -> AuthorizedAccess {
        let audience = requested ?? grantedAudience
        let withinGrant =
            audience == grantedAudience || (audience == configuration.issuer && grantedScope.contains("openid"))
        let scope: Scope
        if let policy = client.refreshTokenPolicy(for: audience) {
            // The original grant's scope for its own API, only its OIDC scopes (who the user is) for another.
            let base = withinGrant ? grantedScope : grantedScope.filter(APIConfiguration.oidcScopes.contains)
            let allowed = base.adding(policy.scopes)
            scope = requestedScope?.filter(allowed.contains) ?? allowed
        } else {
            guard withinGrant else {
                throw OAuthError(
                    .accessDenied, "The requested audience is outside the original grant.",
                    logCode: "audience_widened", reason: String(audience.prefix(128)))
            }
            if let requestedScope {
                // RFC 6749 §6: a narrower scope may be asked for, never a wider one.
                guard requestedScope.isSubset(of: grantedScope) else {
                    throw OAuthError(
                        .invalidScope, "The requested scope exceeds the granted scope.", logCode: "scope_widened")
                }
            }
            scope = requestedScope ?? grantedScope
        }
        guard let loginMethods else {
            guard audience != configuration.deviceKeys.audience else {
                throw OAuthError(
                    .invalidGrant, "Log in again with a passkey to use device keys.",
                    logCode: "refresh_login_unknown_for_device_keys")
            }
            return try authorize(client: client, audience: audience, scope: scope)
        }
        return try authorize(
            client: client, audience: audience, scope: scope,
            passwordLogin: PasswordLogin.isPasswordLogin(loginMethods))
    }
}
