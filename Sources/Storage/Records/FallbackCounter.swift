import Foundation

/// A named counter of the password fallback: failed SRP logins per identity or per address, consecutive
/// biometric failures per device key, the "biometry changed" mark per user. The key spells the kind and subject
/// (the server owns the spelling); the store only counts.
public struct FallbackCounter: Sendable, Hashable {
    /// What is counted, e.g. `srp_identity:<realm>:<identity>`.
    public var key: String
    /// How many times, since the last reset.
    public var count: Int
    /// When it was last incremented.
    public var lastAt: Date

    /// Creates a counter value.
    public init(key: String, count: Int, lastAt: Date) {
        self.key = key
        self.count = count
        self.lastAt = lastAt
    }
}
