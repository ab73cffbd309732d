import HTTP
import Service
import Tokens

extension DeviceKeyEndpoints {
    /// `POST /device-keys/enrolment-challenge` → 201 `{nonce, expires_in}` (`DeviceKeyEnrolment.issueNonce`).
    package func issueEnrolmentChallenge(_ request: Request) async throws -> Response {
        let caller = try await authenticate(request)
        return .json(try await DeviceKeyEnrolment(context: context).issueNonce(for: caller), status: 201)
    }

    /// `authenticate`, which also records a token refused by the device-key audience check when the same token is
    /// otherwise a valid one of this issuer (`DeviceKeyEnrolment.recordForeignToken`), then rethrows.
    package func authenticateForEnrolment(_ request: Request) async throws -> DeviceKeyCaller {
        do {
            return try await authenticate(request)
        } catch let error as TokenError where error.code == .invalidAudience {
            if let subject = try? await context.tokens.authenticate(request) {
                try await DeviceKeyEnrolment(context: context).recordForeignToken(subject, error: error)
            }
            throw error
        }
    }
}
