import Configuration
import Foundation
import HTTP
import JSON
import Service
import WebAuthn

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

    /// The authorization response's parameters (RFC 6749 §4.1.2, RFC 9207 §2): `code`, `state` when the request had
    /// one, and `iss`.
    package static func codeParameters(code: String, state: String?, configuration: ServerConfiguration)
        -> [(String, String)]
    {
        var parameters = [("code", code)]
        if let state { parameters.append(("state", state)) }
        parameters.append(("iss", configuration.issuer))
        return parameters
    }

    /// The error response's parameters (RFC 6749 §4.1.2.1, RFC 9207 §2): `error`, `error_description`, `state`,
    /// `iss`.
    package static func errorParameters(
        error: String, description: String, state: String?, configuration: ServerConfiguration
    ) -> [(String, String)] {
        var parameters = [("error", error), ("error_description", description)]
        if let state { parameters.append(("state", state)) }
        parameters.append(("iss", configuration.issuer))
        return parameters
    }

    /// The answer that takes `parameters` (a code's or an error's) to the client at `redirectURI` by `mode`: a 302
    /// (`query`), a page whose form POSTs them there (`form_post`), or a page that posts them to its opener or parent
    /// at the redirect URI's origin (`web_message`). The request that chose `mode` was checked for it
    /// (`AuthorizationRequest`): an http(s) redirect URI, for `web_message` one of the client's web origins.
    package static func deliver(
        _ parameters: [(String, String)], to redirectURI: String, mode: AuthorizationResponseMode
    ) -> Response {
        switch mode {
        case .query:
            return redirect(to: location(redirectURI, adding: parameters))
        case .formPost:
            // Form Post Response Mode §2: "HTML form values ... auto-submitted in the User Agent"; the button is the
            // way on without scripts.
            let fields = parameters.map { name, value in
                "<input type=\"hidden\" name=\"\(DemoEndpoints.escapedAttribute(name))\" "
                    + "value=\"\(DemoEndpoints.escapedAttribute(value))\">"
            }
            let content = """
                <form method="post" action="\(DemoEndpoints.escapedAttribute(redirectURI))" data-passkeyd-autosubmit>
                \(fields.joined(separator: "\n"))
                <button type="submit">Continue</button></form>
                <script src="/u/response.js"></script>
                """
            return HostedPage.response(
                status: 200, html: document(title: "Signing you in", content: content),
                framing: HostedPage.Framing(formAction: OriginPolicy.webOrigin(of: redirectURI)))
        case .webMessage:
            let delivery = String(decoding: webMessage(parameters, to: redirectURI).serialized(), as: UTF8.self)
            let content = """
                <p id="status" data-passkeyd-authorization-response="\(DemoEndpoints.escapedAttribute(delivery))">\
                Signing you in…</p>
                <script src="/u/response.js"></script>
                """
            return HostedPage.response(
                status: 200, html: document(title: "Signing you in", content: content),
                framing: HostedPage.Framing(keepsOpener: true, frameAncestor: OriginPolicy.webOrigin(of: redirectURI)))
        }
    }

    /// How the login page's script takes `parameters` to the client once its ceremony completed, a member of its
    /// answer: `redirect_to`, the redirect URI with them in its query (`query`); otherwise `authorization_response`,
    /// `{response_mode, redirect_uri, parameters}` (`form_post`) or `{response_mode, target_origin, parameters}`
    /// (`web_message`), which `/u/response.js` delivers as `deliver`'s pages do.
    package static func pageDelivery(
        _ parameters: [(String, String)], to redirectURI: String, mode: AuthorizationResponseMode
    ) -> JSONMember {
        switch mode {
        case .query:
            return JSONMember(key: "redirect_to", value: .string(location(redirectURI, adding: parameters)))
        case .formPost:
            return JSONMember(
                key: "authorization_response",
                value: .object([
                    JSONMember(key: "response_mode", value: .string(mode.rawValue)),
                    JSONMember(key: "redirect_uri", value: .string(redirectURI)),
                    JSONMember(key: "parameters", value: object(parameters)),
                ]))
        case .webMessage:
            return JSONMember(key: "authorization_response", value: webMessage(parameters, to: redirectURI))
        }
    }

    /// What the hosted page's script (`/u/response.js`) delivers by `web_message`: the target origin, the redirect
    /// URI's (`null`, which no window has, if it had none: the request was checked for one), and the parameters.
    static func webMessage(_ parameters: [(String, String)], to redirectURI: String) -> JSONValue {
        .object([
            JSONMember(key: "response_mode", value: .string(AuthorizationResponseMode.webMessage.rawValue)),
            JSONMember(key: "target_origin", value: .string(OriginPolicy.webOrigin(of: redirectURI) ?? "null")),
            JSONMember(key: "parameters", value: object(parameters)),
        ])
    }

    /// `parameters` as the JSON object the page's script reads.
    private static func object(_ parameters: [(String, String)]) -> JSONValue {
        .object(parameters.map { JSONMember(key: $0, value: .string($1)) })
    }

    /// The error response to `redirectURI` by `mode` (`errorParameters`, `deliver`).
    package static func errorResponse(
        redirectURI: String, mode: AuthorizationResponseMode, error: String, description: String, state: String?,
        configuration: ServerConfiguration
    ) -> Response {
        deliver(
            errorParameters(error: error, description: description, state: state, configuration: configuration),
            to: redirectURI, mode: mode)
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
