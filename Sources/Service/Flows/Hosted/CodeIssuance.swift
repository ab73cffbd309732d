import Configuration
import Foundation

/// The parts of a verified authorization request (`GET /authorize`, RFC 6749 §4.1.1, RFC 7636 §4.3) that an
/// authorization code is bound to: the front end checks them (client, `redirect_uri` by `RedirectURIRules`, S256
/// challenge, scope and audience by `ResourceAuthorization`) and hands them to `HostedLogin`.
package struct CodeIssuance: Sendable {
    /// The client (`client_id`), which opted in with `authorization_code`.
    package var client: ClientConfiguration
    /// `redirect_uri` exactly as sent: the token request must send the same (RFC 6749 §4.1.3).
    package var redirectURI: String
    /// `code_challenge` with method S256 (RFC 7636 §4.2: base64url of SHA-256 of the verifier, 43 characters).
    package var codeChallenge: String
    /// The API and scope the request asked for, as `ResourceAuthorization` granted them to the client.
    package var access: AuthorizedAccess
    /// The realm of the login: a login session serves the realm it was made in only.
    package var realm: String
    /// `organization` as sent (an id, or a name when the server allows names), if any.
    package var organization: String?
    /// `nonce` (OIDC Core §3.1.2.1), echoed in the ID token.
    package var nonce: String?
    /// `dpop_jkt` (RFC 9449 §10): the thumbprint of the DPoP key whose proof alone may redeem the code.
    package var dpopThumbprint: String?

    /// Creates the value from its parts.
    package init(
        client: ClientConfiguration, redirectURI: String, codeChallenge: String, access: AuthorizedAccess,
        realm: String, organization: String? = nil, nonce: String? = nil, dpopThumbprint: String? = nil
    ) {
        self.client = client
        self.redirectURI = redirectURI
        self.codeChallenge = codeChallenge
        self.access = access
        self.realm = realm
        self.organization = organization
        self.nonce = nonce
        self.dpopThumbprint = dpopThumbprint
    }
}
