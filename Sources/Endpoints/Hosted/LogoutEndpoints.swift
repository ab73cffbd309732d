import Configuration
import HTTP
import Service

/// Ending the hosted login session: `GET /oidc/logout` (OIDC RP-Initiated Logout 1.0 §2, discovery's
/// `end_session_endpoint`) and Auth0's `GET /v2/logout?client_id&returnTo`. The session is ended in the store
/// (`HostedLogin.logout`: every node refuses it from then on) and its cookie removed; the browser goes back to a
/// registered post-logout redirect URI, or sees a small "signed out" page. A URI that is not one of the client's
/// `post_logout_redirect_uris` is never redirected to (§3.1): the error page, and nothing ended. `/oidc/logout`
/// asks the user first unless its `id_token_hint` names the session's user (`POST /oidc/logout` takes the answer).
package struct LogoutEndpoints: Sendable {
    package let context: ServerContext
    package let login: HostedLogin
    package let cookies: HostedCookies

    package static func register(in router: inout Router, context: ServerContext) {
        let endpoints = LogoutEndpoints(
            context: context, login: HostedLogin(context: context),
            cookies: HostedCookies(configuration: context.configuration))
        router.add(
            .get, "/oidc/logout", EndpointHandler.make(context, rateLimited: true) { try await endpoints.oidc($0) })
        router.add(
            .post, "/oidc/logout",
            EndpointHandler.make(context, rateLimited: true) { try await endpoints.oidcConfirmed($0) })
        router.add(
            .get, "/v2/logout", EndpointHandler.make(context, rateLimited: true) { try await endpoints.auth0($0) })
    }

    /// `GET /oidc/logout`: `id_token_hint` (verified, expiry not enforced), `client_id`, `post_logout_redirect_uri`,
    /// `state` (echoed to the redirect URI). OIDC RP-Initiated Logout 1.0 §2: the OP MUST ask the user whether to
    /// log out when no hint was sent or the hint is not the logged-in user's, so a live session is ended at once
    /// only for a hint whose `sub` is the session's user; otherwise the user sees the question
    /// (`LogoutConfirmation`), answered by `POST /oidc/logout`. Without a live session there is nothing to ask.
    func oidc(_ request: Request) async throws -> Response {
        let query = request.query
        var clientID = query["client_id"].flatMap { $0.isEmpty ? nil : $0 }
        var hintSubject: String?
        if let hint = query["id_token_hint"], !hint.isEmpty {
            let verified: TokenService.IDTokenHint
            do {
                verified = try await context.tokens.verifiedIDTokenHint(hint)
            } catch let error as OAuthError {
                return AuthorizationResponse.errorPage(error.clientDescription)
            }
            // §2: when both are sent, the client_id must be the hint's audience.
            if let clientID, !verified.audience.contains(clientID) {
                return AuthorizationResponse.errorPage("The client_id is not the id_token_hint's audience.")
            }
            clientID = clientID ?? verified.audience.first
            hintSubject = verified.subject
        }
        let target: LogoutTarget
        switch checkedTarget(clientID: clientID, returnTo: query["post_logout_redirect_uri"], state: query["state"]) {
        case .success(let checked): target = checked
        case .failure(let refusal): return refusal.page
        }
        let cookie = request.cookie(named: cookies.sessionName)
        if let session = try await login.liveSession(sessionCookie: cookie), session.userID != hintSubject {
            return try LogoutConfirmation.page(
                target, cookies: cookies, action: context.configuration.url(of: "/oidc/logout"))
        }
        return try await logout(cookie: cookie, target: target)
    }

    /// `POST /oidc/logout`: the user's answer to `LogoutConfirmation`'s question (`confirm` is `yes` or `no`), with
    /// its CSRF value, the client, the return address and `state` as the question carried them, checked again as on
    /// the GET. `yes` ends the session; `no` keeps it. Either way the browser goes back to the return address, or
    /// sees a page.
    func oidcConfirmed(_ request: Request) async throws -> Response {
        let form: [String: String]
        do {
            form = try request.formParameters()
        } catch {
            // RFC 9110 §15.5.16: a body that is no form at all is 415; a malformed one, 400.
            return AuthorizationResponse.page(
                status: error.code == .unsupportedMediaType ? 415 : 400, title: "This sign-out request is not valid",
                message: "The sign-out form could not be read.")
        }
        let cookie = request.cookie(named: cookies.sessionName)
        let session = try await login.liveSession(sessionCookie: cookie)
        let origins =
            session.map { login.grant.verifier.hostedOriginPolicy(realm: $0.realm) }
            ?? login.grant.verifier.hostedOrigins
        guard LogoutConfirmation.isGenuine(request, form: form, cookies: cookies, origins: origins) else {
            return AuthorizationResponse.page(
                status: 403, title: "This sign-out request is not valid", message: "CSRF check failed")
        }
        let target: LogoutTarget
        let clientID = form[LogoutConfirmation.Field.clientID].flatMap { $0.isEmpty ? nil : $0 }
        switch checkedTarget(
            clientID: clientID, returnTo: form[LogoutConfirmation.Field.returnTo],
            state: form[LogoutConfirmation.Field.state])
        {
        case .success(let checked): target = checked
        case .failure(let refusal): return refusal.page
        }
        var response: Response
        switch form[LogoutConfirmation.Field.confirm] {
        case "yes":
            response = try await logout(cookie: cookie, target: target, status: 303)
        case "no":
            response =
                target.location.map { AuthorizationResponse.redirect(to: $0, status: 303) }
                ?? AuthorizationResponse.page(
                    status: 200, title: "Still signed in", message: "You are still signed in.")
        default:
            return AuthorizationResponse.errorPage("The sign-out form has no answer.")
        }
        // The question is answered: its CSRF value is spent.
        response.setCookie(cookies.logoutRemoved)
        return response
    }

    /// Auth0's `GET /v2/logout`: `client_id`, `returnTo` (against the client's `post_logout_redirect_uris`). No
    /// question, as Auth0's own endpoint asks none (docs/hosted-login.md).
    func auth0(_ request: Request) async throws -> Response {
        switch checkedTarget(
            clientID: request.query["client_id"].flatMap { $0.isEmpty ? nil : $0 }, returnTo: request.query["returnTo"],
            state: nil)
        {
        case .success(let target):
            return try await logout(cookie: request.cookie(named: cookies.sessionName), target: target)
        case .failure(let refusal):
            return refusal.page
        }
    }

    /// A logout's client and the address it sends the browser back to.
    struct LogoutTarget {
        /// The client named (by `client_id` or the hint), if any.
        let client: ClientConfiguration?
        /// The registered return address with `state` added, if one was asked for.
        let location: String?
        /// The return address as asked for (for the question's form), and `state`.
        let returnTo: String?
        let state: String?
    }

    /// A refused logout request: its error page.
    struct LogoutRefusal: Error {
        let page: Response
    }

    /// Checks the client and the return address before anything is ended (§3.1: a URI that is not one of the
    /// client's `post_logout_redirect_uris` is never redirected to).
    private func checkedTarget(clientID: String?, returnTo: String?, state: String?)
        -> Result<LogoutTarget, LogoutRefusal>
    {
        let client = clientID.flatMap { context.configuration.client(id: $0) }
        if clientID != nil, client == nil {
            return .failure(LogoutRefusal(page: AuthorizationResponse.errorPage("The client is unknown.")))
        }
        guard let returnTo, !returnTo.isEmpty else {
            return .success(LogoutTarget(client: client, location: nil, returnTo: nil, state: state))
        }
        guard let client else {
            return .failure(
                LogoutRefusal(
                    page: AuthorizationResponse.errorPage("A return address needs the client that registered it.")))
        }
        guard RedirectURIRules.match(returnTo, in: client.postLogoutRedirectURIs) != nil else {
            return .failure(
                LogoutRefusal(
                    page: AuthorizationResponse.errorPage("The return address is not registered for this client.")))
        }
        let location = AuthorizationResponse.location(returnTo, adding: state.map { [("state", $0)] } ?? [])
        return .success(LogoutTarget(client: client, location: location, returnTo: returnTo, state: state))
    }

    /// Ends the session, removes its cookie, and sends the browser back or shows the page.
    private func logout(cookie: String?, target: LogoutTarget, status: Int = 302) async throws -> Response {
        _ = try await login.logout(sessionCookie: cookie, clientID: target.client?.clientID)
        var response =
            target.location.map { AuthorizationResponse.redirect(to: $0, status: status) }
            ?? AuthorizationResponse.page(status: 200, title: "Signed out", message: "You are signed out.")
        response.setCookie(cookies.sessionRemoved)
        return response
    }
}
