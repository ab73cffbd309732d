import Assets
import Configuration
import HTTP
import Service
import WebAuthn

/// The hosted login page (web/hosted/, compiled into the binary by scripts/dev/embed_assets.py): served by
/// `GET /authorize` itself with the request's sealed transaction and CSRF value, and its scripts and style at
/// `/u/webauthn-json.js`, `/u/login.js` and `/u/login.css`.
package enum HostedPage {
    /// The demo page's policy (no inline script or style, no eval, fetches to its own origin only), framing refused
    /// (`frame-ancestors 'none'`, CSP Level 3 §6.4.2: no clickjacking of the passkey button) and no form posts.
    package static let contentSecurityPolicy = DemoEndpoints.contentSecurityPolicy

    /// What a hosted page may do beyond its own origin, which the authorization response modes need
    /// (`AuthorizationResponseMode`): by default nothing (no form posts, no framing, its own browsing context group).
    package struct Framing: Sendable, Equatable {
        /// The one origin its forms may POST to (CSP `form-action`): `form_post`'s redirect URI's.
        package var formAction: String?
        /// Whether the window keeps the page that opened it (COOP `unsafe-none` instead of `same-origin`, which would
        /// sever `window.opener`): `web_message` answers the app that opened the login in a popup.
        package var keepsOpener: Bool
        /// The one origin that may frame the page (CSP `frame-ancestors`; no `X-Frame-Options` then, which cannot
        /// name an origin): `web_message`'s answer page, which the app frames for its silent authentication. Never
        /// the login page itself (no clickjacking of the passkey button).
        package var frameAncestor: String?

        package init(formAction: String? = nil, keepsOpener: Bool = false, frameAncestor: String? = nil) {
            self.formAction = formAction
            self.keepsOpener = keepsOpener
            self.frameAncestor = frameAncestor
        }
    }

    /// The headers of every hosted page and asset: the policy, never cached (the page carries a CSRF value), no
    /// `Referer` leaving it (its URL carries the request), no framing for browsers without CSP 3 — all as `framing`
    /// relaxes them.
    static func headers(contentType: String, framing: Framing = Framing()) -> HTTPHeaders {
        let policy =
            framing == Framing()
            ? contentSecurityPolicy
            : DemoEndpoints.contentSecurityPolicy(
                formAction: [framing.formAction ?? "'none'"], frameAncestors: [framing.frameAncestor ?? "'none'"])
        var headers: HTTPHeaders = [
            "Content-Type": contentType, "Cache-Control": "no-store", "Content-Security-Policy": policy,
            "X-Content-Type-Options": "nosniff", "Referrer-Policy": "no-referrer",
            "Cross-Origin-Opener-Policy": framing.keepsOpener ? "unsafe-none" : "same-origin",
        ]
        if framing.frameAncestor == nil { headers.add(name: "X-Frame-Options", value: "DENY") }
        return headers
    }

    /// An HTML response under the hosted page's headers, as `framing` relaxes them.
    package static func response(status: Int, html: String, framing: Framing = Framing()) -> Response {
        Response(
            status: status, headers: headers(contentType: "text/html; charset=utf-8", framing: framing),
            body: Array(html.utf8))
    }

    /// What the login page of `transaction` may do: POST the code's form to the redirect URI's origin (`form_post`),
    /// keep its opener (`web_message`, the popup of `loginWithPopup`).
    static func framing(_ transaction: HostedTransaction) -> Framing {
        switch transaction.responseMode {
        case .query: Framing()
        case .formPost: Framing(formAction: OriginPolicy.webOrigin(of: transaction.redirectURI))
        case .webMessage: Framing(keepsOpener: true)
        }
    }

    /// Registers `/u/login.js`, `/u/response.js` (the authorization response's delivery by `form_post` and
    /// `web_message`), `/u/login.css` and `/u/webauthn-json.js` (WebAuthn's JSON forms, web/shared/, which the demo
    /// loads too).
    package static func registerAssets(in router: inout Router) {
        for (path, text, type) in [
            ("/u/login.js", EmbeddedAssets.hostedLoginScript, "text/javascript; charset=utf-8"),
            ("/u/response.js", EmbeddedAssets.hostedResponseScript, "text/javascript; charset=utf-8"),
            ("/u/webauthn-json.js", EmbeddedAssets.webAuthnJSONScript, "text/javascript; charset=utf-8"),
            ("/u/login.css", EmbeddedAssets.hostedLoginStyle, "text/css; charset=utf-8"),
        ] {
            let body = Array(text.utf8)
            router.addInline(.get, path) { _ in Response(status: 200, headers: headers(contentType: type), body: body) }
        }
    }

    /// The page for `transaction`, sealed as `sealed`, with the CSRF cookie set: 200.
    package static func page(
        sealed: String, transaction: HostedTransaction, client: ClientConfiguration, realm: RealmConfiguration?,
        cookies: HostedCookies
    ) -> Response {
        // Every value goes into an attribute or text: escaped as HTML attribute text (HTML §13.1.2.3), which is
        // also safe as text.
        let html = EmbeddedAssets.hostedLoginPage
            .replacingOccurrences(of: "{{TRANSACTION}}", with: DemoEndpoints.escapedAttribute(sealed))
            .replacingOccurrences(of: "{{CSRF}}", with: DemoEndpoints.escapedAttribute(transaction.csrf))
            .replacingOccurrences(
                of: "{{CLIENT_NAME}}",
                with: DemoEndpoints.escapedAttribute(client.name.isEmpty ? client.clientID : client.name)
            )
            .replacingOccurrences(of: "{{IDENTIFIER_LABEL}}", with: identifierLabel(realm))
            .replacingOccurrences(
                of: "{{LOGIN_HINT}}", with: DemoEndpoints.escapedAttribute(transaction.loginHint ?? "")
            )
            .replacingOccurrences(of: "{{SIGNUP_AUTOFOCUS}}", with: transaction.signUpFirst ? " autofocus" : "")
        var response = response(status: 200, html: html, framing: framing(transaction))
        response.setCookie(cookies.csrf(transaction.csrf))
        return response
    }

    /// The sign-up field's label: the identifier the realm asks for first.
    static func identifierLabel(_ realm: RealmConfiguration?) -> String {
        switch HostedSignup.identifierField(realm) {
        case "phone_number": "Phone number"
        case "username": "Username"
        default: "Email"
        }
    }
}
