import HTTP
import JSON
import Service

extension DeviceKeyEndpoints {
    /// `POST /device-keys/{key_id}/challenges` `{action}` → 201 `{challenge_id, challenge, expires_in, action}`
    /// (`DeviceKeyChallenges`).
    package func issueChallenge(_ request: Request) async throws -> Response {
        let caller = try await authenticate(request)
        let action = RequestFields { () throws -> JSONValue in
            guard let value = try Self.bodyObject(request)["action"], !value.isNull else {
                throw OAuthError.missingParameter("action")
            }
            return value
        }
        let answer = try await DeviceKeyChallenges(context: context).issue(
            keyID: Self.keyID(of: request), action: action, caller: caller)
        return .json(answer, status: 201)
    }
}
