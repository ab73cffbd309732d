import Foundation
import Storage
import Testing

@Suite("DeviceChallengeConsumption.judge: the single-use rule every driver applies")
struct DeviceChallengeConsumptionTests {
    static let issued = Date(timeIntervalSince1970: 1_800_000_000)

    static func challenge(consumedAt: Date? = nil) -> DeviceChallenge {
        DeviceChallenge(
            challengeID: "c1", keyID: "k1", userID: "u1", document: [1], actionHash: [2], action: [3],
            createdAt: issued, expiresAt: issued + 60, consumedAt: consumedAt)
    }

    @Test("a live challenge presented by its key and user is consumed, at that instant")
    func consumed() {
        let now = Self.issued + 10
        var expected = Self.challenge()
        expected.consumedAt = now
        #expect(
            DeviceChallengeConsumption.judge(Self.challenge(), keyID: "k1", userID: "u1", now: now)
                == .consumed(expected))
    }

    @Test("a consumed challenge is a replay, even when it has expired since")
    func replay() {
        let used = Self.challenge(consumedAt: Self.issued + 1)
        #expect(
            DeviceChallengeConsumption.judge(used, keyID: "k1", userID: "u1", now: Self.issued + 2)
                == .alreadyConsumed(used))
        #expect(
            DeviceChallengeConsumption.judge(used, keyID: "k1", userID: "u1", now: Self.issued + 600)
                == .alreadyConsumed(used))
    }

    @Test("at its expiry instant and after, a challenge is expired")
    func expired() {
        #expect(
            DeviceChallengeConsumption.judge(Self.challenge(), keyID: "k1", userID: "u1", now: Self.issued + 60)
                == .expired(Self.challenge()))
    }

    @Test("another key's or user's challenge, or none, is not found (and not touched)")
    func notFound() {
        let now = Self.issued + 10
        #expect(DeviceChallengeConsumption.judge(Self.challenge(), keyID: "k2", userID: "u1", now: now) == .notFound)
        #expect(DeviceChallengeConsumption.judge(Self.challenge(), keyID: "k1", userID: "u2", now: now) == .notFound)
        #expect(DeviceChallengeConsumption.judge(nil, keyID: "k1", userID: "u1", now: now) == .notFound)
    }
}
