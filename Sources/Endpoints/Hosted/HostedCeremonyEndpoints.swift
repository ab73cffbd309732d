import Configuration
import HTTP
import JSON
import Service

/// The hosted page's POSTs (JSON bodies, each with the sealed `transaction`, behind `HostedCSRF`):
/// `/u/passkey/challenge` and `/u/passkey/register` start a ceremony through the same flows as `/passkey/challenge`
/// and `/passkey/register` (`CeremonyChallenges`); `/u/passkey/complete` completes it (`HostedLogin.complete`), sets
/// the login session's cookie and answers where the page goes next: the client's redirect URI with the code.
package struct HostedCeremonyEndpoints: Sendable {
    package let context: ServerContext
    package let challenges: CeremonyChallenges
    package let login: HostedLogin
    package let cookies: HostedCookies

    package static func register(in router: inout Router, context: ServerContext) {
        let endpoints = HostedCeremonyEndpoints(
            context: context, challenges: CeremonyChallenges(context: context), login: HostedLogin(context: context),
            cookies: HostedCookies(configuration: context.configuration))
        router.add(
            .post, "/u/passkey/challenge",
            EndpointHandler.make(context, rateLimited: true) { try await endpoints.loginChallenge($0) })
        router.add(
            .post, "/u/passkey/register",
            EndpointHandler.make(context, rateLimited: true) { try await endpoints.signupChallenge($0) })
        router.add(
            .post, "/u/passkey/complete",
            EndpointHandler.make(context, rateLimited: true) { try await endpoints.complete($0) })
    }

    /// A POST's body and transaction, after every CSRF check: the header, the cookie and the `Origin` (a page origin
    /// of any realm) before the body is read; the transaction's own value and the `Origin` against its realm's page
    /// origins once it is open.
    /// - Throws: 403 `invalid_request` "CSRF check failed"; 415 for a body that is not JSON; 400 `invalid_request` for
    ///   a transaction that does not open (altered, of another server, or expired: the page must be loaded again) or
    ///   whose realm is no longer configured.
    func checked(_ request: Request) async throws -> (RequestParameters, HostedTransaction, RealmConfiguration) {
        let verifier = login.grant.verifier
        let header = try HostedCSRF.checkRequest(request, cookies: cookies, origins: verifier.hostedOriginsOfAnyRealm)
        let parameters = RequestParameters(values: try request.jsonObject())
        let sealed = try parameters.string("transaction", maxLength: HostedTransactionSealer.maximumValueLength)
        guard let transaction = try await context.openHostedTransaction(sealed, now: context.clock.now())
        else {
            throw OAuthError(
                .invalidRequest, "The sign-in page has expired. Go back to the application and start again.",
                logCode: "hosted_transaction_invalid", reason: "transaction does not open or has expired")
        }
        let realm = try HostedIssuance.realm(transaction, configuration: context.configuration)
        try HostedCSRF.check(
            header, origin: request.headers["Origin"], transaction: transaction,
            origins: verifier.hostedOriginPolicy(realm: realm.name))
        return (parameters, transaction, realm)
    }

    /// The client of `transaction`, still configured for the hosted login.
    private func client(_ transaction: HostedTransaction) throws -> ClientConfiguration {
        try HostedIssuance.issuance(transaction, context: context).client
    }

    /// `POST /u/passkey/challenge` `{transaction}` → `{authn_params_public_key, auth_session}`: a usernameless login
    /// (discoverable credentials), in the request's organization when it names one.
    func loginChallenge(_ request: Request) async throws -> Response {
        let (_, transaction, realm) = try await checked(request)
        let client = try client(transaction)
        let asked = try OrganizationRequest.checked(
            transaction.organization, client: client, configuration: context.configuration)
        let organization = try await asked.asyncMap { try await challenges.organization($0) }
        return .json(try challenges.login(client: client, realm: realm, organization: organization))
    }

    /// `POST /u/passkey/register` `{transaction, identifier}` → `{authn_params_public_key, auth_session}`: a sign-up
    /// with the identifier the realm asks for (`HostedSignup`), by the realm's rules.
    func signupChallenge(_ request: Request) async throws -> Response {
        let (parameters, transaction, realm) = try await checked(request)
        let client = try client(transaction)
        let identifier = try parameters.string("identifier", maxLength: 320)
        let signup = CeremonyChallenges.SignupParameters(
            client: client, realm: realm, userProfile: HostedSignup.userProfile(identifier: identifier, realm: realm),
            organization: try OrganizationRequest.checked(
                transaction.organization, client: client, configuration: context.configuration))
        return .json(try await challenges.signup(signup))
    }

    /// `POST /u/passkey/complete` `{transaction, auth_session, authn_response}` → where the page takes the code, by the
    /// request's `response_mode` (`AuthorizationResponse.pageDelivery`), with the login session's cookie.
    func complete(_ request: Request) async throws -> Response {
        let (parameters, transaction, _) = try await checked(request)
        let issuance = try HostedIssuance.issuance(transaction, context: context)
        // The browser's current session, if it has one (prompt=login, an exceeded max_age): replaced by the new one.
        let completion = try await login.complete(
            issuance,
            authSession: try parameters.string("auth_session", maxLength: AuthSessionSealer.maximumValueLength),
            authnResponse: try parameters.object("authn_response"),
            replacing: request.cookie(named: cookies.sessionName))
        var response = Response.json(
            .object([
                AuthorizationResponse.pageDelivery(
                    AuthorizationResponse.codeParameters(
                        code: completion.code, state: transaction.state, configuration: context.configuration),
                    to: transaction.redirectURI, mode: transaction.responseMode)
            ]))
        response.setCookie(
            cookies.session(completion.sessionCookie, expiresAt: completion.sessionExpiresAt, now: context.clock.now()))
        return response
    }
}

extension Optional {
    /// The wrapped value transformed by an async `transform`, or `nil`.
    fileprivate func asyncMap<T>(_ transform: (Wrapped) async throws -> T) async rethrows -> T? {
        guard let value = self else { return nil }
        return try await transform(value)
    }
}
