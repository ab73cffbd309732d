import Configuration
import HTTP
import Service

/// `GET /authorize` (OIDC Core §3.1.2, RFC 6749 §4.1.1): the request checked (`AuthorizationRequest`); within a live
/// login session a code at once (unless `prompt=login`, or `max_age` has passed); `prompt=none` without one
/// `login_required` (OIDC Core §3.1.2.6); otherwise the hosted page with the request sealed (`HostedTransaction`).
package struct AuthorizeEndpoint: Sendable {
    package let context: ServerContext
    package let login: HostedLogin
    package let cookies: HostedCookies

    package static func register(in router: inout Router, context: ServerContext) {
        let endpoint = AuthorizeEndpoint(
            context: context, login: HostedLogin(context: context),
            cookies: HostedCookies(configuration: context.configuration))
        router.add(
            .get, "/authorize", EndpointHandler.make(context, rateLimited: true) { try await endpoint.answer($0) })
        HostedPage.registerAssets(in: &router)
    }

    /// The answer to one `/authorize` request.
    func answer(_ request: Request) async throws -> Response {
        let configuration = context.configuration
        let csrf = try HostedTransactionSealer.newCSRFValue()
        let now = context.clock.now()
        // RFC 9126 §4: with a request_uri, the pushed request's parameters are the request, the query's others unused.
        let pushed: [String: String]?
        do {
            pushed = try await PushedAuthorizationEndpoint.pushedQuery(
                request.query, repeated: request.repeatedQueryNames, context: context, now: now)
        } catch AuthorizationRequest.Refusal.page(let message) {
            return AuthorizationResponse.errorPage(message)
        }
        switch AuthorizationRequest.parse(
            pushed ?? request.query, repeated: pushed == nil ? request.repeatedQueryNames : [],
            configuration: configuration, csrf: csrf, now: now, pushed: pushed != nil)
        {
        case .refused(.page(let message), _, _, _):
            return AuthorizationResponse.errorPage(message)
        case .refused(.redirect(let error, let description), let redirectURI?, let state, let mode):
            return AuthorizationResponse.errorResponse(
                redirectURI: redirectURI, mode: mode, error: error, description: description, state: state,
                configuration: configuration)
        case .refused(.redirect, nil, _, _):
            // A redirect refusal always comes with the redirect URI; without it, the page.
            return AuthorizationResponse.errorPage("The request cannot be answered.")
        case .accepted(let authorization):
            do {
                return try await answer(authorization, request: request)
            } catch let error as OAuthError {
                // RFC 6749 §4.1.2.1: once the redirect URI is known to be right, errors go back to the client.
                return redirect(authorization, error: error.kind.rawValue, description: error.clientDescription)
            } catch {
                let mapped = ErrorMapping.response(for: error, request: request, context: context)
                return redirect(
                    authorization, error: mapped.status == 503 ? "temporarily_unavailable" : "server_error",
                    description: "The sign-in is unavailable. Try again later.")
            }
        }
    }

    /// The error response to the client, by the request's `response_mode`.
    private func redirect(_ authorization: AuthorizationRequest, error: String, description: String) -> Response {
        AuthorizationResponse.errorResponse(
            redirectURI: authorization.redirectURI, mode: authorization.transaction.responseMode, error: error,
            description: description, state: authorization.state, configuration: context.configuration)
    }

    /// A checked request: a code from the live session, `login_required`, or the page.
    private func answer(_ authorization: AuthorizationRequest, request: Request) async throws -> Response {
        let transaction = authorization.transaction
        let issuance = try HostedIssuance.issuance(transaction, context: context)
        if !authorization.promptLogin {
            let outcome = try await login.issueCode(
                for: issuance, sessionCookie: request.cookie(named: cookies.sessionName), maxAge: transaction.maxAge)
            if case .code(let code) = outcome {
                return AuthorizationResponse.deliver(
                    AuthorizationResponse.codeParameters(
                        code: code, state: authorization.state, configuration: context.configuration),
                    to: authorization.redirectURI, mode: transaction.responseMode)
            }
        }
        // OIDC Core §3.1.2.6: prompt=none and no usable session.
        if authorization.promptNone {
            return redirect(authorization, error: "login_required", description: "The user must sign in.")
        }
        let sealed = try context.authSessionKey.transactionSealer().seal(transaction)
        return HostedPage.page(
            sealed: sealed, transaction: transaction, client: authorization.client,
            realm: try HostedIssuance.realm(transaction, configuration: context.configuration), cookies: cookies)
    }
}
