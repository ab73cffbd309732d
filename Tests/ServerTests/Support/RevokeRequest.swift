import Crypto
import JSON

/// `POST /oauth/revoke` (RFC 7009) as tests send it when they need a request that writes: the endpoint's one write
/// looks the refresh token up and revokes its family if `app` was issued it, and answers 200 either way.
enum RevokeRequest {
    /// A well-formed refresh token (32 bytes, base64url) that no one was issued.
    static let unknownToken = Base64URL.encode([UInt8](repeating: 0x5A, count: 32))

    /// The request's JSON body for `token`.
    static func body(token: String = unknownToken) -> JSONValue {
        ["client_id": "app", "token": .string(token)]
    }
}
