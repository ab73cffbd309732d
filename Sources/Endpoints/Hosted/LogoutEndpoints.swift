import Configuration
import HTTP
import Service

/// Ending the hosted login session: `GET /oidc/logout` (OIDC RP-Initiated Logout 1.0 §2, discovery's
/// `end_session_endpoint`) and Auth0's `GET /v2/logout?client_id&returnTo`. The session is ended in the store
/// (`HostedLogin.logout`: every node refuses it from then on) and its cookie removed; the browser goes back to a
/// registered post-logout redirect URI, or sees a small "signed out" page. A URI that is not one of the client's
/// `post_logout_redirect_uris` is never redirected to (§3.1): the error page, and nothing ended.
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
            .get, "/v2/logout", EndpointHandler.make(context, rateLimited: true) { try await endpoints.auth0($0) })
    }

    /// `GET /oidc/logout`: `id_token_hint` (verified, expiry not enforced), `client_id`, `post_logout_redirect_uri`,
    /// `state` (echoed to the redirect URI).
    func oidc(_ request: Request) async throws -> Response {
        let query = request.query
        var clientID = query["client_id"].flatMap { $0.isEmpty ? nil : $0 }
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
        }
        return try await logout(
            request, clientID: clientID, returnTo: query["post_logout_redirect_uri"], state: query["state"])
    }

    /// Auth0's `GET /v2/logout`: `client_id`, `returnTo` (against the client's `post_logout_redirect_uris`).
    func auth0(_ request: Request) async throws -> Response {
        try await logout(
            request, clientID: request.query["client_id"].flatMap { $0.isEmpty ? nil : $0 },
            returnTo: request.query["returnTo"], state: nil)
    }

    /// Checks the return URI (before anything is ended), ends the session, removes its cookie, and sends the browser
    /// back or shows the page.
    private func logout(_ request: Request, clientID: String?, returnTo: String?, state: String?) async throws
        -> Response
    {
        let client = clientID.flatMap { context.configuration.client(id: $0) }
        if clientID != nil, client == nil { return AuthorizationResponse.errorPage("The client is unknown.") }
        var location: String?
        if let returnTo, !returnTo.isEmpty {
            guard let client else {
                return AuthorizationResponse.errorPage("A return address needs the client that registered it.")
            }
            guard RedirectURIRules.match(returnTo, in: client.postLogoutRedirectURIs) != nil else {
                return AuthorizationResponse.errorPage("The return address is not registered for this client.")
            }
            location = AuthorizationResponse.location(returnTo, adding: state.map { [("state", $0)] } ?? [])
        }
        _ = try await login.logout(
            sessionCookie: request.cookie(named: cookies.sessionName), clientID: client?.clientID)
        var response =
            location.map(AuthorizationResponse.redirect(to:))
            ?? AuthorizationResponse.page(status: 200, title: "Signed out", message: "You are signed out.")
        response.setCookie(cookies.sessionRemoved)
        return response
    }
}
