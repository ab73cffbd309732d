import Foundation

/// A user's SRP-6a password verifier (RFC 5054 §2.4): what the password fallback stores instead of the password.
/// Nothing here yields the password without a dictionary attack; no endpoint ever returns it.
public struct PasswordVerifier: Sendable, Hashable {
    /// The owner; one verifier per user.
    public var userID: String
    /// The owner's realm; `identity` is unique per realm.
    public var realm: String
    /// I: the identifier string the client hashed into x (one of the user's identifiers).
    public var identity: String
    /// s: the salt, at least 16 bytes.
    public var salt: [UInt8]
    /// v = g^x mod N, big-endian.
    public var verifier: [UInt8]
    /// When this verifier was stored (enrolled or replaced).
    public var updatedAt: Date

    /// Creates a verifier record.
    public init(userID: String, realm: String, identity: String, salt: [UInt8], verifier: [UInt8], updatedAt: Date) {
        self.userID = userID
        self.realm = realm
        self.identity = identity
        self.salt = salt
        self.verifier = verifier
        self.updatedAt = updatedAt
    }
}
