import Foundation
import Testing

@testable import Tokens

@Suite("SigningKeyRotation: newest active key signs, retired keys stay published while their tokens live")
struct SigningKeyRotationTests {
    static let t0 = Date(timeIntervalSince1970: 1_800_000_000)
    static let hour: TimeInterval = 3600
    let rule = SigningKeyRotation(maxTokenLifetime: hour)

    static let old = SigningKeyRecord(keyID: "old", createdAt: t0, retiredAt: t0.addingTimeInterval(10 * hour))
    static let current = SigningKeyRecord(keyID: "current", createdAt: t0.addingTimeInterval(10 * hour))
    static let next = SigningKeyRecord(keyID: "next", createdAt: t0.addingTimeInterval(20 * hour))
    static let keys = [old, current, next]

    @Test("the newest active key signs; a future key does not sign yet")
    func signingKey() {
        #expect(rule.signingKey(among: Self.keys, at: Self.t0.addingTimeInterval(5 * Self.hour))?.keyID == "old")
        #expect(rule.signingKey(among: Self.keys, at: Self.t0.addingTimeInterval(10 * Self.hour))?.keyID == "current")
        #expect(rule.signingKey(among: Self.keys, at: Self.t0.addingTimeInterval(19 * Self.hour))?.keyID == "current")
        #expect(rule.signingKey(among: Self.keys, at: Self.t0.addingTimeInterval(20 * Self.hour))?.keyID == "next")
    }

    @Test("no active key gives nil")
    func none() {
        #expect(rule.signingKey(among: [], at: Self.t0) == nil)
        #expect(rule.signingKey(among: [Self.next], at: Self.t0) == nil)
        #expect(rule.signingKey(among: [Self.old], at: Self.t0.addingTimeInterval(10 * Self.hour)) == nil)
    }

    @Test("equal creation times are broken by kid, deterministically")
    func tie() {
        let a = SigningKeyRecord(keyID: "a", createdAt: Self.t0)
        let b = SigningKeyRecord(keyID: "b", createdAt: Self.t0)
        #expect(rule.signingKey(among: [a, b], at: Self.t0)?.keyID == "b")
        #expect(rule.signingKey(among: [b, a], at: Self.t0)?.keyID == "b")
    }

    @Test("a retired key stays published until retiredAt + maxTokenLifetime; future keys are pre-published")
    func published() {
        let retiredAt = Self.t0.addingTimeInterval(10 * Self.hour)
        let ids = { (now: Date) in rule.publishedKeys(among: Self.keys, at: now).map(\.keyID) }
        #expect(ids(Self.t0) == ["old", "current", "next"])
        #expect(ids(retiredAt.addingTimeInterval(Self.hour - 1)) == ["old", "current", "next"])
        #expect(ids(retiredAt.addingTimeInterval(Self.hour)) == ["current", "next"])
    }
}
