import Crypto
import Foundation
import Storage

/// The sealed `auth_session` of `/passkey/challenge` and `/passkey/register`: the whole `AuthSession`, encrypted
/// and authenticated in the server's `SealedEnvelope` under a key every node of one database shares
/// (`AuthSessionKey`), so that the
/// challenge endpoints store nothing and any node completes the ceremony. Single use is the token grant's: it
/// records the session's id as spent in the write that completes or refuses it (`StoreWriter.spendAuthSession`).
///
/// The value is the envelope's (version ‖ nonce ‖ ciphertext ‖ tag, base64url), its associated data naming the
/// purpose and the version, so neither another envelope of the server's nor another version opens as a session.
/// Opaque to the client (Auth0's `auth_session` is an opaque string too).
package struct AuthSessionSealer: Sendable {
    /// The format written, and the only one opened: 2 since the plaintext carries the organization
    /// (`AuthSessionCoding`); a version-1 value from before is an unknown session.
    package static let version: UInt8 = 2
    /// The longest value opened, in characters: a sign-up's profile at every bound `UserProfile` sets (about
    /// 12 KB sealed) fits; anything longer is refused unread.
    package static let maximumValueLength = 16_384
    /// What the sealing key is derived for from the stored secret (HKDF-SHA-256 `info`).
    package static let keyPurpose = Array("passkeyd auth_session AES-256-GCM key v1".utf8)

    private let envelope: SealedEnvelope

    /// A sealer under the key derived from `secret`, the stored server secret (`AuthSessionKey.secretName`).
    package init(secret: [UInt8]) throws {
        envelope = try SealedEnvelope(
            secret: secret, keyPurpose: Self.keyPurpose, label: "passkeyd auth_session", version: Self.version,
            maximumValueLength: Self.maximumValueLength)
    }

    /// A new session id made at `now`: 16 bytes, base64url (22 characters), sorting by time as text
    /// (`AuthSessionIdentifier`).
    package static func newSessionID(now: Date) throws -> String {
        try AuthSessionIdentifier.make(now: now)
    }

    /// The `auth_session` value of `session`.
    /// - Throws: 400 `invalid_request` when the value would be longer than `maximumValueLength` (a profile the
    ///   realm's bounds allow never is), `OAuthError.bug` for a session the server cannot have made.
    package func seal(_ session: AuthSession) throws -> String {
        let value = try envelope.seal(try AuthSessionCoding.encode(session))
        guard value.utf8.count <= Self.maximumValueLength else {
            throw OAuthError.invalidParameter("user_profile", reason: "too large for an auth_session")
        }
        return value
    }

    /// The session `value` seals, or `nil` when it does not open: not canonical base64url, too long, another
    /// version, truncated, altered, or sealed under another key. The caller answers all of these as an unknown
    /// session.
    package func open(_ value: String) -> AuthSession? {
        envelope.open(value).flatMap(AuthSessionCoding.decode)
    }
}
