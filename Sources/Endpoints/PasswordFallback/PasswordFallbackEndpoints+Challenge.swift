import Configuration
import HTTP
import Service

extension PasswordFallbackEndpoints {
    /// `POST /srp/challenge` `{client_id, realm?, identity, A}` → `{salt, B, auth_session}` (RFC 5054 §2.5.3–2.5.4),
    /// the same answer for an identity with no verifier (`SRPChallenge`).
    ///
    /// A ≡ 0 (mod N) and A ≥ N are refused (400, `PasswordFallback.GroupElement`); identities and client networks
    /// over the failure limits are delayed or locked (`SRPThrottle`).
    package func challenge(_ request: Request) async throws -> Response {
        let parameters = try RequestParameters(request)
        let client = try await ClientResolution.client(
            parameters, request: request, allowing: ClientConfiguration.srpGrant, context: context)
        let realm = try PasskeyEndpoints.realm(parameters, context: context)
        let identity = try parameters.string("identity", maxLength: PasswordFallback.maximumIdentityLength)
        guard !identity.isEmpty else { throw OAuthError.invalidParameter("identity", reason: "is empty") }
        let clientPublic = try PasswordFallback.GroupElement.clientPublic(
            try Self.bytes(parameters, "A", maxLength: PasswordFallback.maximumGroupElementLength))
        let answer = try await SRPChallenge(context: context).challenge(
            SRPChallenge.Request(
                clientID: client.clientID, realm: realm.name, identity: identity, clientPublic: clientPublic,
                address: request.remoteAddress ?? "unknown"))
        return .json(answer)
    }
}
