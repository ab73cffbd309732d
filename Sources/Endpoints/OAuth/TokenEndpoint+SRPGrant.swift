import Configuration
import HTTP
import Service

extension TokenEndpoint {
    /// `grant_type=urn:passkeyd:params:oauth:grant-type:srp6a` with `auth_session` and `M1` → the token response
    /// plus `M2` (RFC 2945 §3), with `amr: ["pwd"]` (RFC 8176) and `auth_time`; bound to `dpop`'s key when the
    /// request carried a valid DPoP proof (RFC 9449 §5). The login, its throttle and its audit are `SRPLogin`'s.
    package func srpGrant(_ parameters: RequestParameters, client: ClientConfiguration, dpop: String?) async throws
        -> Response
    {
        let presentedSession = try parameters.string("auth_session", maxLength: 128)
        let proof = try PasswordFallback.ClientProof(
            try PasswordFallbackEndpoints.bytes(parameters, "M1", maxLength: 128))
        // A password login is only for the client's `password_login_audiences` (never the device-key or account API).
        let access = try requestedAccess(parameters, client: client, passwordLogin: true)
        let realmName = try parameters.optionalString("realm", maxLength: 128)
        guard let handle = AuthSessionHandle(presented: presentedSession) else {
            throw OAuthError.invalidSession("session_malformed")
        }
        return .token(
            try await SRPLogin(context: context).finish(
                SRPLogin.Request(
                    client: client, session: handle, realmName: realmName, proof: proof, access: access,
                    dpopThumbprint: dpop)))
    }
}
