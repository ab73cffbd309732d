import Foundation

/// A one-time challenge for one device key and one action.
public struct DeviceChallenge: Sendable, Hashable {
    /// The challenge id.
    public var challengeID: String
    /// The device key that must sign it.
    public var keyID: String
    /// The key's owner.
    public var userID: String
    /// The exact bytes the device signs (the canonical JSON document).
    public var document: [UInt8]
    /// SHA-256 of the canonical action.
    public var actionHash: [UInt8]
    /// The canonical action JSON bytes.
    public var action: [UInt8]
    /// When the challenge was issued.
    public var createdAt: Date
    /// When the challenge stops being usable.
    public var expiresAt: Date
    /// When the challenge was consumed (set once).
    public var consumedAt: Date?

    /// Creates a device-challenge record.
    public init(
        challengeID: String, keyID: String, userID: String, document: [UInt8], actionHash: [UInt8],
        action: [UInt8], createdAt: Date, expiresAt: Date, consumedAt: Date? = nil
    ) {
        self.challengeID = challengeID
        self.keyID = keyID
        self.userID = userID
        self.document = document
        self.actionHash = actionHash
        self.action = action
        self.createdAt = createdAt
        self.expiresAt = expiresAt
        self.consumedAt = consumedAt
    }
}
