import Configuration
import HTTP
import Service

/// `POST /recovery/challenge` `{client_id, identifier, realm?}` → `{auth_session, expires_in}`: the first step of
/// account recovery with a recovery code (`RecoveryChallenge`), finished by the recovery grant at `/oauth/token`.
package enum RecoveryEndpoints {
    package static func register(in router: inout Router, context: ServerContext) {
        let flow = RecoveryChallenge(context: context)
        router.add(
            .post, "/recovery/challenge",
            EndpointHandler.make(context, rateLimited: true) { request in
                try await challenge(request, flow: flow, context: context)
            })
    }

    package static func challenge(_ request: Request, flow: RecoveryChallenge, context: ServerContext) async throws
        -> Response
    {
        let parameters = try RequestParameters(request)
        let client = try await ClientResolution.client(
            parameters, request: request, allowing: ClientConfiguration.recoveryCodeGrant, context: context)
        let realm = try PasskeyEndpoints.realm(parameters, context: context)
        let identifier = try parameters.string("identifier", maxLength: 320)
        return .json(
            try await flow.open(
                RecoveryChallenge.Parameters(
                    client: client, realm: realm, identifier: identifier,
                    address: request.remoteAddress ?? "unknown")))
    }
}
