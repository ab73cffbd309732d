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
