import Foundation

/// What a verified assertion changes on a credential (WebAuthn L3 §7.2 steps 21–24).
public struct CredentialUse: Sendable, Hashable {
    /// The credential used.
    public var credentialID: [UInt8]
    /// The counter the verifier compared against: the update applies only if the stored counter still equals it.
    public var expectedSignCount: UInt32
    /// The counter from the assertion's authenticator data.
    public var newSignCount: UInt32
    /// The BS flag from the assertion's authenticator data.
    public var backedUp: Bool
    /// When the assertion was verified.
    public var usedAt: Date

    /// Creates a credential-use update.
    public init(credentialID: [UInt8], expectedSignCount: UInt32, newSignCount: UInt32, backedUp: Bool, usedAt: Date) {
        self.credentialID = credentialID
        self.expectedSignCount = expectedSignCount
        self.newSignCount = newSignCount
        self.backedUp = backedUp
        self.usedAt = usedAt
    }
}
