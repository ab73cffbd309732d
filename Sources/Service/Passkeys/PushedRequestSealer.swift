import Crypto
import Foundation

/// The sealed form of a pushed authorization request (`PushedAuthorizationRequest`), the part of its `request_uri`
/// after `PushedAuthorizationRequest.uriPrefix`: sealed in the server's `SealedEnvelope` under a key of its own,
/// derived from the same server secret as the auth sessions' and the hosted transactions' (`AuthSessionKey`), so
/// that none of them opens as another. It opens until its `expiresAt`, on any node.
package struct PushedRequestSealer: Sendable {
    /// The format written, and the only one opened.
    package static let version: UInt8 = 1
    /// The longest value sealed or opened, in characters: a `request_uri` stays a URL that browsers and proxies carry.
    package static let maximumValueLength = 8_192
    /// What the sealing key is derived for from the stored secret (HKDF-SHA-256 `info`).
    package static let keyPurpose = Array("passkeyd pushed authorization request AES-256-GCM key v1".utf8)

    private let envelope: SealedEnvelope

    /// A sealer under the key derived from `secret`, the stored server secret (`AuthSessionKey.secretName`).
    package init(secret: [UInt8]) throws {
        envelope = try SealedEnvelope(
            secret: secret, keyPurpose: Self.keyPurpose, label: "passkeyd pushed authorization request",
            version: Self.version, maximumValueLength: Self.maximumValueLength)
    }

    /// The sealed value of `request`.
    /// - Throws: 400 `invalid_request` for a request whose sealed value would pass `maximumValueLength`.
    package func seal(_ request: PushedAuthorizationRequest) throws -> String {
        let value = try envelope.seal(request.plaintext)
        guard value.utf8.count <= Self.maximumValueLength else {
            throw OAuthError(
                .invalidRequest, "The pushed request is too large.", logCode: "par_too_large",
                reason: "a sealed request of \(value.utf8.count) characters")
        }
        return value
    }

    /// The request `value` seals when it is still live at `now`; `nil` when it does not open (altered, another key or
    /// purpose, not one) or has expired.
    package func open(_ value: String, now: Date) -> PushedAuthorizationRequest? {
        guard let request = envelope.open(value).flatMap(PushedAuthorizationRequest.init(plaintext:)),
            now < request.expiresAt
        else { return nil }
        return request
    }
}
