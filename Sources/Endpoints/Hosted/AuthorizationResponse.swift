import Configuration
import HTTP

/// The answers of `GET /authorize` and of the logout endpoints to a browser: a redirect to the client, or a small
/// HTML page when there is nowhere safe to send it (RFC 6749 §4.1.2.1: an invalid `client_id` or `redirect_uri` is
/// never redirected).
package enum AuthorizationResponse {
    /// `uri` with `parameters` added to its query (RFC 6749 §3.1.2: the redirect URI's own query is kept; the values
    /// form-encoded, §4.1.2).
    package static func location(_ uri: String, adding parameters: [(String, String)]) -> String {
        guard !parameters.isEmpty else { return uri }
        let separator = uri.contains("?") ? (uri.hasSuffix("?") || uri.hasSuffix("&") ? "" : "&") : "?"
        return uri + separator + FormURLEncoding.encode(parameters)
    }

    /// A 302 (or `status`: 303 after a form's POST, RFC 9110 §15.4.4) to `location`, not cached, sending no
    /// `Referer` (the URL carries a code or an error).
    package static func redirect(to location: String, status: Int = 302) -> Response {
        Response(
            status: status,
            headers: ["Location": location, "Cache-Control": "no-store", "Referrer-Policy": "no-referrer"])
    }

    /// The authorization response (RFC 6749 §4.1.2, RFC 9207 §2): `code`, `state` when the request had one, and
    /// `iss`.
    package static func codeLocation(
        redirectURI: String, code: String, state: String?, configuration: ServerConfiguration
    ) -> String {
        var parameters = [("code", code)]
        if let state { parameters.append(("state", state)) }
        parameters.append(("iss", configuration.issuer))
        return location(redirectURI, adding: parameters)
    }

    /// The error response (RFC 6749 §4.1.2.1, RFC 9207 §2): `error`, `error_description`, `state`, `iss`.
    package static func errorRedirect(
        redirectURI: String, error: String, description: String, state: String?, configuration: ServerConfiguration
    ) -> Response {
        var parameters = [("error", error), ("error_description", description)]
        if let state { parameters.append(("state", state)) }
        parameters.append(("iss", configuration.issuer))
        return redirect(to: location(redirectURI, adding: parameters))
    }

    /// A small HTML page with a heading and a sentence (both escaped), under the hosted page's headers.
    package static func page(status: Int, title: String, message: String) -> Response {
        HostedPage.response(
            status: status, html: document(title: title, content: "<p>\(DemoEndpoints.escapedAttribute(message))</p>"))
    }

    /// The HTML of a small page under the hosted page's style sheet: `title` (escaped) as its title and heading,
    /// then `content`, HTML the caller has escaped.
    static func document(title: String, content: String) -> String {
        """
        <!doctype html>
        <html lang="en">
        <head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
        <title>\(DemoEndpoints.escapedAttribute(title))</title><link rel="stylesheet" href="/u/login.css"></head>
        <body><main><h1>\(DemoEndpoints.escapedAttribute(title))</h1>
        \(content)</main></body>
        </html>

        """
    }

    /// The error page of a request that cannot be redirected: 400 with the reason, no `Location`.
    package static func errorPage(_ message: String) -> Response {
        page(status: 400, title: "This sign-in link is not valid", message: message)
    }
}
