import DeviceKeys
import Testing

@testable import Server

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

  @Test("not_found is 404; key_locked, key_revoked and login_required are 403")
  func statuses() {
    #expect(OAuthError.deviceKeyNotFound("k").response.status == 404)
    #expect(OAuthError.deviceKeyLocked.response.status == 403)
    #expect(OAuthError.deviceKeyRevoked.response.status == 403)
    #expect(OAuthError.unlockNeedsFreshLogin.response.status == 403)
  }
}
