import Crypto

/// The opaque `auth_session` value handed to the client, and the session id stored for it.
///
/// The value is 32 random bytes (base64url); the store keys the session by SHA-256 of those bytes, so a
/// database read never yields a usable session.
package struct AuthSessionHandle: Sendable {
    /// What the client receives and sends back.
    package let value: String
    /// `AuthSession.id`: base64url(SHA-256(bytes)).
    package let sessionID: String

    /// A new random handle.
    package static func generate() throws -> AuthSessionHandle {
        let bytes = try SecureRandom.bytes(count: 32)
        return AuthSessionHandle(value: Base64URL.encode(bytes), sessionID: Base64URL.encode(Digest.sha256(bytes)))
    }

    private init(value: String, sessionID: String) {
        self.value = value
        self.sessionID = sessionID
    }

    /// The handle of a presented `auth_session`; `nil` unless it is the canonical base64url of 32 bytes (the one
    /// spelling `Base64URL.decode` accepts).
    package init?(presented: String) {
        guard presented.utf8.count == 43, let bytes = Base64URL.decode(presented), bytes.count == 32 else { return nil }
        self.value = presented
        self.sessionID = Base64URL.encode(Digest.sha256(bytes))
    }
}
