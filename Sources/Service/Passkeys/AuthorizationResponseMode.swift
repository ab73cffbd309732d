/// How `/authorize` delivers its authorization response (the code, or the error) to the client: `response_mode`.
///
/// - `query`: a 302 to the redirect URI with the parameters in its query (OAuth 2.0 Multiple Response Type Encoding
///   Practices §2.1, the default of `response_type=code`).
/// - `form_post`: an HTML page whose form POSTs the parameters to the redirect URI (OAuth 2.0 Form Post Response
///   Mode §2), what server-side web apps such as express-openid-connect ask for.
/// - `web_message`: an HTML page that posts `{type: "authorization_response", response: {…}}` to the window that
///   opened it or framed it, at the redirect URI's origin (draft-sakimura-oauth-wmrm, as Auth0 answers it): what
///   auth0-spa-js's silent authentication (`prompt=none` in an iframe) and `loginWithPopup` ask for.
package enum AuthorizationResponseMode: String, Sendable, CaseIterable {
    case query
    case formPost = "form_post"
    case webMessage = "web_message"
}
