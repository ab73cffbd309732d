import Configuration
import HTTP
import Service

extension TokenEndpoint {
    /// `grant_type=urn:passkeyd:params:oauth:grant-type:recovery-code` with `auth_session` (from
    /// `/recovery/challenge`) and `recovery_code` → the restricted token that adds one passkey (`RecoveryGrant`).
    package func recoveryGrant(
        _ parameters: RequestParameters, client: ClientConfiguration, dpop: String?, address: String
    )
        async throws -> Response
    {
        let authSession = try parameters.string("auth_session", maxLength: 128)
        let recoveryCode = try parameters.string("recovery_code", maxLength: 64)
        return .token(
            try await recovery.redeem(
                RecoveryGrant.Parameters(
                    authSession: authSession, recoveryCode: recoveryCode, client: client, dpopThumbprint: dpop,
                    address: address)))
    }
}
