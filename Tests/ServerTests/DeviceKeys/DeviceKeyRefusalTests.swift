import DeviceKeys
import Testing

@testable import Commands
@testable import Endpoints
@testable import Service
@testable import passkeyd

@Suite("Device-key refusals: one fixed answer per code")
struct DeviceKeyRefusalTests {
    @Test(
        "every DeviceKeyError code maps to its error and status",
        arguments: [
            (DeviceKeyError.Code.malformedKey, "invalid_request", 400),
            (.invalidKeyLength, "invalid_request", 400), (.compressedPoint, "invalid_request", 400),
            (.unsupportedCurve, "invalid_request", 400), (.unsupportedKeyType, "invalid_request", 400),
            (.pointNotOnCurve, "invalid_request", 400),
            (.invalidAuthorizationDetails, "invalid_authorization_details", 400),
            (.actionNotObject, "invalid_authorization_details", 400),
            (.actionMissingType, "invalid_authorization_details", 400),
            (.actionTooDeep, "invalid_authorization_details", 400),
            (.actionTooManyMembers, "invalid_authorization_details", 400),
            (.actionStringTooLong, "invalid_authorization_details", 400),
            (.actionTooLarge, "invalid_authorization_details", 400),
            (.challengeExpired, "expired_challenge", 400), (.challengeMismatch, "invalid_challenge", 400),
            (.invalidSignature, "invalid_signature", 400),
            (.invalidChallengeDocument, "server_error", 500),
        ])
    func mapping(code: DeviceKeyError.Code, error: String, status: Int) {
        let mapped = ErrorMapping.oauthError(
            for: DeviceKeyError(code, "detail that must not reach the client"))
        #expect(mapped.kind.rawValue == error)
        #expect(mapped.kind.status == status)
        #expect(!mapped.clientDescription.contains("detail that must not"))
    }

    @Test(
        "each action rule has its own fixed description, chosen by code whatever the reason says",
        arguments: [
            (DeviceKeyError.Code.actionTooDeep, "The action nests deeper than 5 levels."),
            (.actionTooManyMembers, "The action has more than 32 members."),
            (.actionStringTooLong, "The action has a string longer than 255 characters."),
            (.actionTooLarge, "The action is larger than 4096 bytes."),
            (.actionNotObject, "The action must be a JSON object."),
            (.actionMissingType, "The action needs a non-empty string member \"type\"."),
            (
                .invalidAuthorizationDetails,
                "The action is not valid JSON within the limits of an authorization detail."
            ),
        ])
    func actionDescriptions(code: DeviceKeyError.Code, description: String) {
        // A reason that names another limit must not change the answer: the code alone decides.
        let mapped = ErrorMapping.oauthError(for: DeviceKeyError(code, "maxDepth: misleading reason"))
        #expect(mapped.kind.rawValue == "invalid_authorization_details")
        #expect(mapped.clientDescription == description)
        #expect(mapped.logCode == "device_action_invalid")
    }

    @Test("not_found is 404; key_locked, key_revoked and login_required are 403")
    func statuses() {
        #expect(OAuthError.deviceKeyNotFound("k").response.status == 404)
        #expect(OAuthError.deviceKeyLocked.response.status == 403)
        #expect(OAuthError.deviceKeyRevoked.response.status == 403)
        #expect(OAuthError.unlockNeedsFreshLogin.response.status == 403)
    }
}
