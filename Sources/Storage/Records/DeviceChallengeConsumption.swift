import Foundation

/// The outcome of consuming a device challenge: exactly one caller ever gets `.consumed`.
public enum DeviceChallengeConsumption: Sendable, Hashable {
    /// This caller consumed the challenge; carries it with `consumedAt` set.
    case consumed(DeviceChallenge)
    /// The challenge was consumed before: a replay. Carries the stored challenge.
    case alreadyConsumed(DeviceChallenge)
    /// The challenge is past its expiry (not consumed). Carries the stored challenge.
    case expired(DeviceChallenge)
    /// No challenge with that id belongs to that key and user (a foreign challenge is not touched).
    case notFound
}

extension DeviceChallengeConsumption {
    /// The single-use rule every driver applies: what presenting `challenge` (the stored row with that id, if
    /// any) for `keyID` and `userID` at `now` gives. A challenge is consumable once, before its expiry, by the key
    /// and user it was issued to; `.consumed` carries it with `consumedAt` set, for the driver to persist (a
    /// driver whose database decides the winner in one statement uses this only to say why it did not win).
    public static func judge(_ challenge: DeviceChallenge?, keyID: String, userID: String, now: Date) -> Self {
        guard var challenge, challenge.keyID == keyID, challenge.userID == userID else { return .notFound }
        if challenge.consumedAt != nil { return .alreadyConsumed(challenge) }
        if now >= challenge.expiresAt { return .expired(challenge) }
        challenge.consumedAt = now
        return .consumed(challenge)
    }
}
