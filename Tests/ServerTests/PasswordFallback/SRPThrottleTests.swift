import Foundation
import Storage
import Testing

@testable import Commands
@testable import Configuration
@testable import Endpoints
@testable import Service
@testable import passkeyd

@Suite("SRPThrottle: one rule for the password and recovery locks")
struct SRPThrottleTests {
    /// The defaults: a delay from 5 failures of an identity, a lock from 10 for an hour, a network's delay from 20
    /// failures within an hour.
    static let throttle = SRPThrottle(
        ServerConfiguration.SRPSettings(
            maxFailures: 10, delayAfterFailures: 5, lockSeconds: 3_600, addressDelayAfterFailures: 20,
            sessionLifetimeSeconds: 120, addressWindowSeconds: 3_600, freshLoginMaxAgeSeconds: 300))
    static let start = Date(timeIntervalSince1970: 1_800_000_000)

    static func counter(_ count: Int, at offset: TimeInterval = 0) -> FallbackCounter {
        FallbackCounter(key: "k", count: count, lastAt: start.addingTimeInterval(offset))
    }

    static func at(_ offset: TimeInterval) -> Date { start.addingTimeInterval(offset) }

    @Test("an identity: free below delay_after_failures, then 1 s, 2 s, 4 s … after the last failure, at most 15 min")
    func identityDelay() {
        let throttle = Self.throttle
        #expect(throttle.decide(identity: Self.counter(4), address: nil, now: Self.at(0)) == .allowed)
        #expect(throttle.decide(identity: Self.counter(5), address: nil, now: Self.at(0)) == .delayed(retryAfter: 1))
        #expect(throttle.decide(identity: Self.counter(5), address: nil, now: Self.at(1)) == .allowed)
        #expect(throttle.decide(identity: Self.counter(9), address: nil, now: Self.at(10)) == .delayed(retryAfter: 6))
        #expect(SRPThrottle.delay(afterFailures: 40, threshold: 5) == SRPThrottle.maximumDelay)
    }

    @Test("an identity at max_failures is locked for lock_seconds after its last failure, then judged again")
    func identityLock() {
        let throttle = Self.throttle
        #expect(
            throttle.decide(identity: Self.counter(10), address: nil, now: Self.at(0)) == .locked(retryAfter: 3_600))
        #expect(
            throttle.decide(identity: Self.counter(10), address: nil, now: Self.at(3_599.5)) == .locked(retryAfter: 1))
        #expect(throttle.decide(identity: Self.counter(10), address: nil, now: Self.at(3_600)) == .allowed)
        // A failure after the cooling period locks it again, for the whole period.
        #expect(
            throttle.decide(identity: Self.counter(11, at: 3_600), address: nil, now: Self.at(3_600))
                == .locked(retryAfter: 3_600))
        #expect(throttle.locks(atFailures: 10) && throttle.locks(atFailures: 11) && !throttle.locks(atFailures: 9))
        // The network's delay still applies once the identity cools down.
        #expect(
            throttle.decide(identity: Self.counter(10), address: Self.counter(25, at: 3_590), now: Self.at(3_600))
                == .delayed(retryAfter: 22))
    }

    @Test("a network: no delay below address_delay_after_failures; then the same doubling, within its window only")
    func network() {
        let throttle = Self.throttle
        #expect(throttle.decide(identity: nil, address: Self.counter(19), now: Self.at(0)) == .allowed)
        #expect(throttle.decide(identity: nil, address: Self.counter(20), now: Self.at(0)) == .delayed(retryAfter: 1))
        #expect(throttle.decide(identity: nil, address: Self.counter(40), now: Self.at(899)) == .delayed(retryAfter: 1))
        // A count older than the window no longer counts (and is purged).
        #expect(throttle.decide(identity: nil, address: Self.counter(40, at: -3_600.5), now: Self.at(0)) == .allowed)
        // The longer wait of the two applies.
        #expect(
            throttle.decide(identity: Self.counter(6), address: Self.counter(22), now: Self.at(0))
                == .delayed(retryAfter: 4))
    }

    @Test("an identity's count is kept a day after its last failure, a network's its window; then purged, by kind")
    func memory() {
        let throttle = Self.throttle
        #expect(throttle.identityWindowStart(now: Self.at(0)) == Self.at(-86_400))
        let stale = throttle.staleCounters(now: Self.at(0))
        #expect(
            stale.map(\.keyPrefix) == [
                FallbackCounterKey.identityPrefix, FallbackCounterKey.recoveryIdentifierPrefix,
                FallbackCounterKey.addressPrefix, FallbackCounterKey.recoveryAddressPrefix,
            ])
        #expect(stale.map(\.before) == [Self.at(-86_400), Self.at(-86_400), Self.at(-3_600), Self.at(-3_600)])
    }
}
