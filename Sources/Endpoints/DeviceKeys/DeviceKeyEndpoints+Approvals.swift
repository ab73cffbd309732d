import HTTP
import Service

extension DeviceKeyEndpoints {
    /// `POST /device-keys/{key_id}/approvals` `{challenge_id, signature}` → 200 `{action_token, token_type,
    /// expires_in, authorization_details: [action]}` (`DeviceKeyApproval`).
    package func approve(_ request: Request) async throws -> Response {
        let caller = try await authenticate(request)
        let answer = RequestFields { try Self.signedChallenge(Self.parameters(try Self.bodyObject(request))) }
        return .token(
            try await DeviceKeyApproval(context: context).approve(
                keyID: Self.keyID(of: request), answer: answer, caller: caller))
    }
}
