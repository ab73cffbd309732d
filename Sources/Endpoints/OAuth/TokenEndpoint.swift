import Configuration
import HTTP
import JSON
import Service

/// `POST /oauth/token` (RFC 6749 §3.2), JSON or form-encoded: the webauthn grant of Auth0's native passkey
/// flow, the refresh_token grant, the recovery-code grant, the SRP-6a grant and the hosted login's authorization
/// code grant; `/oauth/revoke` (RFC 7009) and
/// `/userinfo` (OIDC Core §5.3). Each parses the request into its flow's parameters, runs the flow (`WebAuthnGrant`,
/// `RefreshGrant`, `RecoveryGrant`, `TokenRevocation`, `UserInfo`) and renders the outcome.
package struct TokenEndpoint: Sendable {
    package let context: ServerContext
    /// Sign-up and login with a passkey.
    package let webAuthn: WebAuthnGrant
    /// Rotation of a refresh token.
    package let refresh: RefreshGrant
    /// A recovery code for the restricted token that adds a passkey.
    package let recovery: RecoveryGrant
    /// A hosted login's authorization code for tokens.
    package let authorizationCode: AuthorizationCodeGrant

    package init(context: ServerContext) {
        self.context = context
        webAuthn = WebAuthnGrant(context: context, verifier: CeremonyVerifier(context: context))
        refresh = RefreshGrant(context: context)
        recovery = RecoveryGrant(context: context)
        authorizationCode = AuthorizationCodeGrant(context: context)
    }

    package static func register(in router: inout Router, context: ServerContext) {
        let endpoint = TokenEndpoint(context: context)
        router.add(
            .post, "/oauth/token",
            EndpointHandler.make(context, rateLimited: true) { request in
                try await endpoint.token(request)
            })
        router.add(
            .post, "/oauth/revoke",
            EndpointHandler.make(context) { request in
                try await endpoint.revoke(request)
            })
        router.add(
            .post, "/oauth/introspect",
            EndpointHandler.make(context, rateLimited: true) { request in
                try await endpoint.introspect(request)
            })
        let userinfo = EndpointHandler.make(context) { request in try await endpoint.userinfo(request) }
        // OIDC Core §5.3.1: the UserInfo endpoint answers GET and POST.
        router.add(.get, "/userinfo", userinfo)
        router.add(.post, "/userinfo", userinfo)
    }

    /// Dispatches on `grant_type` (RFC 6749 §5.2: an unknown one is `unsupported_grant_type`).
    package func token(_ request: Request) async throws -> Response {
        let parameters = try RequestParameters(request)
        let grantType = try parameters.string("grant_type", maxLength: 256)
        guard let grant = GrantType(rawValue: grantType) else {
            throw OAuthError(
                .unsupportedGrantType, "Unsupported grant type.", logCode: "unsupported_grant_type",
                reason: String(grantType.prefix(64)))
        }
        let client = try await ClientResolution.client(
            parameters, request: request, allowing: grantType, context: context)
        // Only the passkey grant logs in an organization (a refreshed token keeps its family's).
        if grant != .webAuthn, try parameters.optionalString("organization", maxLength: 256) != nil {
            throw OAuthError.organizationNotAllowed(grant: grantType)
        }
        // RFC 9449 §5: a valid proof binds the tokens to its key; checked before the grant spends anything.
        let proof = try await context.tokens.checkGrantProof(PresentedCredentials(request), client: client)
        var response: Response
        switch grant {
        case .refreshToken:
            response = try await refreshTokenGrant(parameters, client: client, dpop: proof?.thumbprint)
        case .srp:
            response = try await srpGrant(parameters, client: client, dpop: proof?.thumbprint)
        case .recoveryCode:
            response = try await recoveryGrant(
                parameters, client: client, dpop: proof?.thumbprint, address: request.remoteAddress ?? "unknown")
        case .webAuthn: response = try await webAuthnGrant(parameters, client: client, dpop: proof?.thumbprint)
        case .authorizationCode:
            response = try await authorizationCodeGrant(parameters, client: client, dpop: proof?.thumbprint)
        case .clientCredentials:
            response = try await clientCredentialsGrant(parameters, client: client, dpop: proof?.thumbprint)
        }
        // RFC 9449 §8.2: a fresh nonce for the client's next proof.
        if proof != nil, let nonce = try await context.tokens.currentDPoPNonce() {
            response.headers.replace(name: "DPoP-Nonce", value: nonce)
        }
        return response
    }
}
