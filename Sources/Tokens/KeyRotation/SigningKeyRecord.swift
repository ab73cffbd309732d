import Foundation

/// The lifecycle facts of one token-signing key, as the store keeps them.
public struct SigningKeyRecord: Sendable, Hashable {
    /// `kid`.
    public var keyID: String
    /// When the key became (or becomes) usable for signing.
    public var createdAt: Date
    /// When the key stopped signing, if it did.
    public var retiredAt: Date?

    /// Collects the facts.
    public init(keyID: String, createdAt: Date, retiredAt: Date? = nil) {
        self.keyID = keyID
        self.createdAt = createdAt
        self.retiredAt = retiredAt
    }
}
