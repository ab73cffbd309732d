import Configuration
import Service

/// The authorization request a sealed transaction carries, as `HostedLogin` takes it (`CodeIssuance`): the client
/// read again (it must still exist and have the grant), the redirect URI matched again, and the audience and scope
/// granted by `ResourceAuthorization` as for every login. The realm is the one `/authorize` was asked for
/// (`connection`), else the default realm.
enum HostedIssuance {
    /// The realm the hosted page of `transaction` signs in to: its `connection`, or the default realm.
    /// - Throws: 400 `invalid_request` for a realm no longer configured.
    static func realm(_ transaction: HostedTransaction, configuration: ServerConfiguration) throws
        -> RealmConfiguration
    {
        try CeremonyChallenges.realm(named: transaction.realm, configuration: configuration)
    }

    /// The issuance of `transaction`.
    /// - Throws: 400 `invalid_request` for a client or redirect URI no longer configured, 403 `access_denied` for an
    ///   audience the client may not have, `invalid_scope` for a malformed scope.
    static func issuance(_ transaction: HostedTransaction, context: ServerContext) throws -> CodeIssuance {
        let configuration = context.configuration
        guard let client = configuration.client(id: transaction.clientID),
            client.grantTypes.contains(GrantType.authorizationCode.rawValue),
            RedirectURIRules.match(transaction.redirectURI, in: client.redirectURIs) != nil
        else {
            throw OAuthError(
                .invalidRequest, "The sign-in request is no longer valid.", logCode: "hosted_client_gone",
                reason: "client \(transaction.clientID) or its redirect URI is no longer configured")
        }
        guard let scope = Scope(parsing: transaction.scope) else {
            throw OAuthError(.invalidScope, "The scope is malformed.", logCode: "scope_malformed")
        }
        let access = try context.tokens.authorization.authorize(
            client: client, audience: transaction.audience, scope: scope)
        return CodeIssuance(
            client: client, redirectURI: transaction.redirectURI, codeChallenge: transaction.codeChallenge,
            access: access, realm: try realm(transaction, configuration: configuration).name,
            organization: transaction.organization,
            nonce: transaction.nonce, dpopThumbprint: transaction.dpopThumbprint)
    }
}
