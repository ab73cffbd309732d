import Configuration
import HTTP
import Service

extension TokenEndpoint {
    /// `grant_type=urn:okta:params:oauth:grant-type:webauthn` with `auth_session` and `authn_response`, optional
    /// `audience`, `scope`, `realm` and `organization` (the SDKs send the challenge's again; it must name the
    /// session's): completes the passkey ceremony the session started (`WebAuthnGrant`).
    package func webAuthnGrant(_ parameters: RequestParameters, client: ClientConfiguration, dpop: String?) async throws
        -> Response
    {
        // Sealed (`AuthSessionSealer`): any length the body limit lets through is judged by opening it, so that a
        // value past the sealer's own bound is refused as an unknown session (invalid_grant) like any other.
        let authSession = try parameters.string("auth_session", maxLength: .max)
        let authnResponse = try parameters.object("authn_response")
        let access = try requestedAccess(parameters, client: client)
        let realm = try parameters.optionalString("realm", maxLength: 128)
        let organization = try parameters.optionalString("organization", maxLength: 256)
        var grant = WebAuthnGrant.Parameters(
            authSession: authSession, authnResponse: authnResponse, access: access, realm: realm, client: client,
            dpopThumbprint: dpop)
        grant.organization = organization
        return .token(try await webAuthn.complete(grant))
    }
}
