import Configuration
import Crypto
import Foundation
import HTTP
import Service
import WebAuthn

/// The question OIDC RP-Initiated Logout 1.0 §2 makes the OP ask ("the OP MUST ask the End-User this question if an
/// id_token_hint was not provided or if the supplied ID Token does not belong to the ... currently logged in
/// End-User"): a small page whose form posts the answer back to `/oidc/logout`. Without it, any site could end a
/// user's session by sending the browser to the end-session endpoint (a top-level navigation carries the
/// `SameSite=Lax` session cookie).
///
/// The form's CSRF defence is a double submit: a random value in a hidden field and in a `SameSite=Strict`,
/// `HttpOnly` cookie of its own (`HostedCookies.logout`), compared in constant time; a cross-site POST carries
/// neither that cookie nor the session's. An `Origin`, when the browser sends one, must be the hosted page's own.
/// The client, the return address and `state` ride in hidden fields and are checked again on the POST, as on the GET.
package enum LogoutConfirmation {
    /// The form's field names.
    package enum Field {
        package static let csrf = "csrf"
        package static let clientID = "client_id"
        package static let returnTo = "post_logout_redirect_uri"
        package static let state = "state"
        /// `yes` (sign out) or `no` (stay signed in).
        package static let confirm = "confirm"
    }

    /// The question for `target`, with a new CSRF value in the form and in its cookie: 200.
    static func page(_ target: LogoutEndpoints.LogoutTarget, cookies: HostedCookies, action: String) throws
        -> Response
    {
        let csrf = try HostedTransactionSealer.newCSRFValue()
        var hidden = [(Field.csrf, csrf)]
        if let client = target.client { hidden.append((Field.clientID, client.clientID)) }
        if let returnTo = target.returnTo { hidden.append((Field.returnTo, returnTo)) }
        if let state = target.state { hidden.append((Field.state, state)) }
        // Every value goes into an attribute: escaped as HTML attribute text (HTML §13.1.2.3).
        let fields = hidden.map { name, value in
            "<input type=\"hidden\" name=\"\(name)\" value=\"\(DemoEndpoints.escapedAttribute(value))\">"
        }.joined(separator: "\n")
        let content = """
            <p>An application asked to end your sign-in session here. Do you want to sign out?</p>
            <form method="post" action="\(DemoEndpoints.escapedAttribute(action))">
            \(fields)
            <button type="submit" name="\(Field.confirm)" value="yes" id="confirm-logout">Sign out</button>
            <button type="submit" name="\(Field.confirm)" value="no" id="stay-signed-in">Stay signed in</button>
            </form>
            """
        var response = HostedPage.response(
            status: 200, html: AuthorizationResponse.document(title: "Sign out?", content: content))
        response.headers.replace(
            name: "Content-Security-Policy", value: contentSecurityPolicy(returnTo: target.returnTo))
        // Fetch, "serializing a request origin": under `no-referrer` a form's POST says `Origin: null`, which
        // `isGenuine` refuses; `same-origin` lets the POST name its origin and still sends no `Referer` elsewhere.
        response.headers.replace(name: "Referrer-Policy", value: "same-origin")
        response.setCookie(cookies.logout(csrf))
        return response
    }

    /// The pages' policy without scripts (this page has none), its form allowed to post to its own origin and be
    /// redirected on to the return address: CSP Level 3 §6.3.1 `form-action` also governs the redirects that follow
    /// a submission, so the return address's origin (or, for an app's own scheme, that scheme) is listed beside
    /// `'self'`.
    package static func contentSecurityPolicy(returnTo: String?) -> String {
        DemoEndpoints.contentSecurityPolicy(
            scripts: false, formAction: ["'self'"] + (returnTo.flatMap(sourceExpression).map { [$0] } ?? []))
    }

    /// The CSP source expression (CSP Level 3 §2.3.1) for `uri`: `scheme://host[:port]` when it has a host,
    /// `scheme:` otherwise; nil when either part holds a character a source expression cannot (a registered URI is
    /// never spelled into the policy as it came).
    static func sourceExpression(_ uri: String) -> String? {
        guard let components = URLComponents(string: uri), let scheme = components.scheme?.lowercased(),
            scheme.utf8.allSatisfy({ isSchemeByte($0) })
        else { return nil }
        guard let host = components.percentEncodedHost, !host.isEmpty else { return "\(scheme):" }
        guard host.utf8.allSatisfy({ isHostByte($0) }) else { return nil }
        return "\(scheme)://\(host)" + (components.port.map { ":\($0)" } ?? "")
    }

    private static func isSchemeByte(_ byte: UInt8) -> Bool {
        isAlphanumeric(byte) || byte == UInt8(ascii: "+") || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".")
    }

    private static func isHostByte(_ byte: UInt8) -> Bool {
        isAlphanumeric(byte) || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "[")
            || byte == UInt8(ascii: "]") || byte == UInt8(ascii: ":")
    }

    private static func isAlphanumeric(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
            || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
    }

    /// Whether the POST of `form` is the question's own answer: its CSRF field equals the logout cookie (constant
    /// time), and its `Origin`, when sent, is one `origins` accepts.
    static func isGenuine(_ request: Request, form: [String: String], cookies: HostedCookies, origins: OriginPolicy)
        -> Bool
    {
        guard let field = form[Field.csrf], !field.isEmpty, let cookie = request.cookie(named: cookies.logoutName),
            ConstantTime.equals(Array(field.utf8), Array(cookie.utf8))
        else { return false }
        if let origin = request.headers["Origin"], !origins.allows(origin: origin) { return false }
        return true
    }
}
