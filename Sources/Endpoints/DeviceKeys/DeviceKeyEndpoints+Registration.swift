import Crypto
import HTTP
import JSON
import Service

extension DeviceKeyEndpoints {
    /// Longest `device_id` accepted, in bytes.
    package static let maximumDeviceIDLength = 128
    /// Longest `public_key` text accepted: an SPKI of P-256 is 91 bytes, 122 characters in base64url.
    package static let maximumPublicKeyLength = 1024
    /// Longest `enrolment_nonce` accepted: ours are 43 characters (32 random bytes, base64url).
    package static let maximumNonceLength = 64

    /// `POST /device-keys` `{device_id, platform, public_key, attestation?, enrolment_nonce?}` → 201 `{key_id,
    /// device_id, platform, status, created_at, attestation}` (`DeviceKeyEnrolment.register`).
    package func registerKey(_ request: Request) async throws -> Response {
        let caller = try await authenticateForEnrolment(request)
        let body = try Self.bodyObject(request)
        let deviceID = try Self.parameters(body).string("device_id", maxLength: Self.maximumDeviceIDLength)
        let answer = try await DeviceKeyEnrolment(context: context).register(
            deviceID: deviceID, request: RequestFields { try Self.enrolmentRequest(body) }, caller: caller)
        return .json(answer, status: 201)
    }

    /// The rest of a `POST /device-keys` body: `platform` (`ios` or `android`), `public_key` (base64url),
    /// `attestation` and `enrolment_nonce`, as they are.
    private static func enrolmentRequest(_ body: JSONValue) throws -> DeviceKeyEnrolmentRequest {
        let parameters = Self.parameters(body)
        let platformText = try parameters.string("platform", maxLength: 16)
        guard let platform = DevicePlatform(rawValue: platformText) else {
            throw OAuthError(
                .invalidRequest, "Invalid parameter: platform must be \"ios\" or \"android\".",
                logCode: "invalid_platform", reason: String(platformText.prefix(16)))
        }
        let encodedKey = try parameters.string("public_key", maxLength: Self.maximumPublicKeyLength)
        guard let keyBytes = Base64URL.decode(encodedKey) else {
            throw OAuthError(
                .invalidRequest, "Invalid public_key: not base64url.", logCode: "public_key_not_base64url")
        }
        let attestation = body["attestation"].flatMap { $0.isNull ? nil : $0 }
        return DeviceKeyEnrolmentRequest(
            platform: platform, publicKey: keyBytes, attestation: attestation,
            enrolmentNonce: RequestFields { try parameters.string("enrolment_nonce", maxLength: maximumNonceLength) })
    }

    /// `GET /device-keys` → `{keys: [...], history: [...]}` (`DeviceKeyListing`).
    package func listKeys(_ request: Request) async throws -> Response {
        let caller = try await authenticate(request)
        return .json(try await DeviceKeyListing(context: context).list(for: caller))
    }

    /// `DELETE /device-keys/{key_id}` (optional body `{device_proof: {challenge_id, signature}}`) → 204
    /// (`DeviceKeyRevocation`).
    package func revokeKey(_ request: Request) async throws -> Response {
        let caller = try await authenticate(request)
        let body = RequestFields { Self.deviceProof(in: request.body.isEmpty ? nil : try Self.bodyObject(request)) }
        try await DeviceKeyRevocation(context: context).revoke(
            keyID: Self.keyID(of: request), body: body, caller: caller)
        return .empty()
    }
}
