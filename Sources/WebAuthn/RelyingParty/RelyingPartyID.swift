import Crypto

/// An RP ID (WebAuthn L3 §5.1.2 / §6.1) with the SHA-256 that authenticator data carries as `rpIdHash`,
/// computed once when the value is built: a server verifies every ceremony against the same RP ID, so the
/// hash belongs with its configuration, not with each request.
public struct RelyingPartyID: Sendable, Hashable, ExpressibleByStringLiteral, CustomStringConvertible {
    /// The RP ID, e.g. `example.com`.
    public let value: String
    /// SHA-256 of the RP ID's UTF-8 bytes (WebAuthn L3 §6.1 `rpIdHash`).
    public let hash: [UInt8]

    /// The RP ID `value` and its hash.
    public init(_ value: String) {
        self.value = value
        self.hash = Digest.sha256(Array(value.utf8))
    }

    public init(stringLiteral value: String) {
        self.init(value)
    }

    public var description: String { value }

    /// Two RP IDs are the same when their text is (the hash follows from it).
    public static func == (lhs: RelyingPartyID, rhs: RelyingPartyID) -> Bool { lhs.value == rhs.value }

    public func hash(into hasher: inout Hasher) { hasher.combine(value) }
}
