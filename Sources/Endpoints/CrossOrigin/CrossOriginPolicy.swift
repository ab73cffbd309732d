import Configuration
import Service
import WebAuthn

/// Which endpoints a script on a web page of another origin may call and read, and from which origins: the
/// server's side of the Fetch standard's CORS protocol (https://fetch.spec.whatwg.org/#http-cors-protocol).
///
/// - The passkey and OAuth endpoints a web app drives (`/passkey/*`, `/oauth/token`, `/oauth/revoke`, `/oauth/par`,
///   `/userinfo`) answer the configured web origins only: the top-level `web_origins` and every client's
///   (Auth0's "Allowed Web Origins"). The request names its client in the body, which a preflight does not
///   carry, so the allowed set is the union over all clients; the ceremony itself is still checked against
///   the presenting client's own origins (WebAuthn L3 §7.1 step 9, §7.2 step 13).
/// - The public discovery documents (OIDC Discovery §4, the JWKS) and the related origins document (WebAuthn L3
///   §5.11) answer any origin with `*`.
/// - Everything else (device keys, health, metrics, association files) sends no CORS headers, so browsers
///   keep other origins' scripts from reading it.
///
/// - The hosted login page's routes (`/authorize`, `/u/*`, the logout endpoints) take no part: the page calls its
///   own origin, and its POSTs' custom CSRF header makes any other origin's script need a preflight they never get.
///
/// No `Access-Control-Allow-Credentials`: the API's tokens travel in bodies and `Authorization`; the hosted login's
/// cookies are never sent cross-origin with a readable answer.
package struct CrossOriginPolicy: Sendable {
    /// Who may read an endpoint cross-origin.
    package enum Access: Sendable, Equatable {
        /// Any origin (`Access-Control-Allow-Origin: *`): public documents.
        case anyOrigin
        /// The configured web origins, echoed one at a time (`Vary: Origin`).
        case webOrigins
    }

    /// Route pattern → access, for the endpoints that take part in CORS.
    private let routes: [String: Access]
    /// The configured web origins, compared as WebAuthn compares `C.origin` (scheme, host and port).
    private let origins: OriginPolicy

    /// How long a browser may cache a preflight answer (`Access-Control-Max-Age`, seconds).
    package static let preflightMaxAgeSeconds = 600
    /// Request headers a cross-origin script may send (`Access-Control-Allow-Headers`); the CORS-safelisted
    /// ones need no listing, `Content-Type: application/json` does; `DPoP` carries a proof (RFC 9449 §4.1).
    package static let allowedRequestHeaders = "Authorization, Content-Type, DPoP, X-Request-Id"
    /// Response headers a cross-origin script may read besides the safelisted ones
    /// (`Access-Control-Expose-Headers`): the Bearer or DPoP challenge, the rate limit's back-off, the request id,
    /// the DPoP nonce (RFC 9449 §8).
    package static let exposedResponseHeaders = "WWW-Authenticate, Retry-After, X-Request-Id, DPoP-Nonce"

    /// The policy of `configuration`.
    package init(configuration: ServerConfiguration) {
        var webOrigins = configuration.webOrigins
        for client in configuration.clients { webOrigins += client.webOrigins }
        self.init(webOrigins: webOrigins)
    }

    /// A policy allowing `webOrigins` on the web-app endpoints.
    package init(webOrigins: [String]) {
        origins = OriginPolicy(allowedOrigins: webOrigins)
        var routes: [String: Access] = [
            "/.well-known/openid-configuration": .anyOrigin, "/.well-known/jwks.json": .anyOrigin,
            RelatedOriginsEndpoint.path: .anyOrigin,
        ]
        for route in [
            "/passkey/register", "/passkey/challenge", "/oauth/token", "/oauth/revoke", "/oauth/par", "/userinfo",
        ] {
            routes[route] = .webOrigins
        }
        self.routes = routes
    }

    /// How `route` (a router pattern) may be read cross-origin; `nil` when it takes no part in CORS.
    package func access(route: String) -> Access? { routes[route] }

    /// Whether a script of `origin` (the request's `Origin` field) may call the web-app endpoints. The opaque
    /// origin `null` (sandboxed frames, `file:` pages) never may.
    package func allows(origin: String) -> Bool { origins.allows(origin: origin) }
}
