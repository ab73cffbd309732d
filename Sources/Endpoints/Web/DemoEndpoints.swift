import Assets
import Configuration
import Foundation
import HTTP
import JSON
import Service

/// The demo web app (`web.demo: true`): `/demo/` (the page), `/demo/demo.js` and `/demo/demo.css`, compiled into
/// the binary from web/demo/ (scripts/dev/embed_assets.py). The page signs up and logs in through this server's own
/// passkey and token endpoints; its origin is a web origin while the demo is on (`WebConfiguration.Demo`).
package enum DemoEndpoints {
    /// The page's policy: its own script and style only (no inline script, no eval), fetches to its own origin,
    /// no framing, no form posts, no base-URL change (CSP Level 3 §6).
    package static let contentSecurityPolicy = contentSecurityPolicy()

    /// The policy of the server's own pages (this one, the hosted login's): own style and images, no framing, no
    /// base-URL change; with `scripts`, its own scripts (no inline script, no eval) and fetches to its own origin,
    /// without, none at all (`default-src 'none'`); forms may post to `formAction` only (CSP Level 3 §6.3.1, which
    /// also governs the redirects that follow a submission); only `frameAncestors` may frame it (§6.4.2).
    package static func contentSecurityPolicy(
        scripts: Bool = true, formAction: [String] = ["'none'"], frameAncestors: [String] = ["'none'"]
    ) -> String {
        "default-src 'none'; "
            + (scripts ? "script-src 'self'; style-src 'self'; connect-src 'self'; " : "style-src 'self'; ")
            + "img-src 'self'; base-uri 'none'; form-action \(formAction.joined(separator: " ")); "
            + "frame-ancestors \(frameAncestors.joined(separator: " "))"
    }

    package static func register(in router: inout Router, demo: WebConfiguration.Demo, accountAudience: String) {
        // The client id and the account API's audience go into <meta> attributes: escaped as HTML attribute text
        // (HTML §13.1.2.3).
        let page = EmbeddedAssets.demoPage.replacingOccurrences(
            of: "{{CLIENT_ID}}", with: escapedAttribute(demo.clientID)
        ).replacingOccurrences(of: "{{ACCOUNT_AUDIENCE}}", with: escapedAttribute(accountAudience))
        add(&router, "/demo/", page, contentType: "text/html; charset=utf-8")
        add(&router, "/demo/demo.js", EmbeddedAssets.demoScript, contentType: "text/javascript; charset=utf-8")
        // WebAuthn's JSON forms, the hosted page's own file (web/shared/), served beside the demo's script.
        add(
            &router, "/demo/webauthn-json.js", EmbeddedAssets.webAuthnJSONScript,
            contentType: "text/javascript; charset=utf-8")
        add(&router, "/demo/demo.css", EmbeddedAssets.demoStyle, contentType: "text/css; charset=utf-8")
    }

    private static func add(_ router: inout Router, _ path: String, _ text: String, contentType: String) {
        let body = Array(text.utf8)
        router.addInline(.get, path) { _ in
            Response(
                status: 200,
                headers: [
                    "Content-Type": contentType, "Cache-Control": "no-cache",
                    "Content-Security-Policy": contentSecurityPolicy, "X-Content-Type-Options": "nosniff",
                    "X-Frame-Options": "DENY", "Referrer-Policy": "no-referrer",
                    "Cross-Origin-Opener-Policy": "same-origin",
                ],
                body: body)
        }
    }

    /// `text` with the five characters that can end or break an HTML attribute value replaced by references.
    package static func escapedAttribute(_ text: String) -> String {
        var escaped = ""
        for character in text {
            switch character {
            case "&": escaped += "&amp;"
            case "<": escaped += "&lt;"
            case ">": escaped += "&gt;"
            case "\"": escaped += "&quot;"
            case "'": escaped += "&#39;"
            default: escaped.append(character)
            }
        }
        return escaped
    }
}
