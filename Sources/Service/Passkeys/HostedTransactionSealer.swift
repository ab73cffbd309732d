import Crypto
import Foundation

/// The sealed transaction of the hosted login page (`HostedTransaction`): sealed in the server's `SealedEnvelope`
/// under a key of its own, derived from the same server secret as the auth sessions' (`AuthSessionKey`), so a
/// transaction never opens as an `auth_session` nor the reverse. It opens until its `expiresAt`, on any node.
package struct HostedTransactionSealer: Sendable {
    /// The format written, and the only one opened.
    package static let version: UInt8 = 1
    /// The longest value opened, in characters (a transaction at every parameter's bound is about 11 KB).
    package static let maximumValueLength = 16_384
    /// What the sealing key is derived for from the stored secret (HKDF-SHA-256 `info`).
    package static let keyPurpose = Array("passkeyd hosted transaction AES-256-GCM key v1".utf8)

    private let envelope: SealedEnvelope

    /// A sealer under the key derived from `secret`, the stored server secret (`AuthSessionKey.secretName`).
    package init(secret: [UInt8]) throws {
        envelope = try SealedEnvelope(
            secret: secret, keyPurpose: Self.keyPurpose, label: "passkeyd hosted transaction", version: Self.version,
            maximumValueLength: Self.maximumValueLength)
    }

    /// The sealed value of `transaction`.
    /// - Throws: `OAuthError.bug` for a transaction too long to open again (`/authorize` bounds every parameter).
    package func seal(_ transaction: HostedTransaction) throws -> String {
        let value = try envelope.seal(transaction.plaintext)
        guard value.utf8.count <= Self.maximumValueLength else {
            throw OAuthError.bug("a hosted transaction of \(value.utf8.count) characters")
        }
        return value
    }

    /// The transaction `value` seals when it is still live at `now`; `nil` when it does not open (altered, another
    /// key or purpose, not one) or has expired.
    package func open(_ value: String, now: Date) -> HostedTransaction? {
        guard let transaction = envelope.open(value).flatMap(HostedTransaction.init(plaintext:)),
            now < transaction.expiresAt
        else { return nil }
        return transaction
    }

    /// A new CSRF value: 32 random bytes, base64url.
    package static func newCSRFValue() throws -> String {
        Base64URL.encode(try SecureRandom.bytes(count: 32))
    }
}
