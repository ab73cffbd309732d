import HTTP
import JSON
import Service

extension DeviceKeyEndpoints {
    /// The `device_proof` member `{challenge_id, signature}` of `body`, `nil` when absent or `null`, or the refusal
    /// of a malformed one (400 `invalid_request`), for the flow to read when it looks at the proof (`DeviceProofCheck`).
    package static func deviceProof(in body: JSONValue?) -> DeviceProofField {
        RequestFields {
            guard let value = body?["device_proof"], !value.isNull else { return nil }
            guard let members = value.objectValue else {
                throw OAuthError.invalidParameter("device_proof", reason: "is not an object")
            }
            return try signedChallenge(RequestParameters(values: members))
        }
    }
}
