import Foundation
import Testing

@testable import Commands
@testable import Endpoints
@testable import Service
@testable import passkeyd

@Suite("Per-network rate limiter")
struct RateLimiterTests {
    @Test("a fixed one-minute window per address")
    func window() {
        let limiter = RateLimiter(limit: 2)
        let start = Date(timeIntervalSince1970: 1_800_000_010)
        #expect(limiter.check(address: "a", now: start) == .allowed)
        #expect(limiter.check(address: "a", now: start) == .allowed)
        #expect(limiter.check(address: "a", now: start) == .limited(retryAfter: 50))
        #expect(limiter.check(address: "b", now: start) == .allowed)
        #expect(limiter.check(address: "a", now: start.addingTimeInterval(50)) == .allowed)
    }

    @Test("a limit of 0 disables limiting")
    func disabled() {
        let limiter = RateLimiter(limit: 0)
        for _ in 0..<5 { #expect(limiter.check(address: "a", now: Date()) == .allowed) }
    }

    @Test("the table never grows past its bound")
    func bounded() {
        let limiter = RateLimiter(limit: 1, maxKeys: 3)
        let now = Date(timeIntervalSince1970: 1_800_000_000)
        for index in 0..<10 { #expect(limiter.check(address: "a\(index)", now: now) == .allowed) }
    }

    @Test("addresses count per network: an IPv6 /64 and an IPv4 /24 are one key, an IPv4-mapped address its IPv4 one")
    func perNetwork() {
        let limiter = RateLimiter(limit: 2)
        let now = Date(timeIntervalSince1970: 1_800_000_000)
        #expect(limiter.check(address: "2001:db8:0:1::1", now: now) == .allowed)
        #expect(limiter.check(address: "2001:db8:0:1:ffff:ffff:ffff:ffff", now: now) == .allowed)
        #expect(limiter.check(address: "2001:db8:0:1::2", now: now) == .limited(retryAfter: 60))
        #expect(limiter.check(address: "2001:db8:0:2::1", now: now) == .allowed)
        #expect(limiter.check(address: "203.0.113.7", now: now) == .allowed)
        #expect(limiter.check(address: "::ffff:203.0.113.200", now: now) == .allowed)
        #expect(limiter.check(address: "203.0.113.1", now: now) == .limited(retryAfter: 60))
        #expect(limiter.check(address: "203.0.114.7", now: now) == .allowed)
    }

    @Test("a full table evicts the window opened first; the others keep their counts")
    func evictsOldest() {
        let limiter = RateLimiter(limit: 1, maxKeys: 3)
        let now = Date(timeIntervalSince1970: 1_800_000_000)
        for key in ["k0", "k1", "k2"] { #expect(limiter.check(key: key, now: now) == .allowed) }
        #expect(limiter.check(key: "k2", now: now) == .limited(retryAfter: 60))
        // A fourth key evicts k0 only: k1 and k2 are still at their limit.
        #expect(limiter.check(key: "k3", now: now) == .allowed)
        #expect(limiter.check(key: "k1", now: now) == .limited(retryAfter: 60))
        #expect(limiter.check(key: "k2", now: now) == .limited(retryAfter: 60))
        // k0 starts again (evicting k1, the oldest now); k2 and k3 keep theirs.
        #expect(limiter.check(key: "k0", now: now) == .allowed)
        #expect(limiter.check(key: "k3", now: now) == .limited(retryAfter: 60))
        #expect(limiter.check(key: "k1", now: now) == .allowed)
        #expect(limiter.check(key: "k0", now: now) == .limited(retryAfter: 60))
        // Many more keys than the table holds: each new one evicts one, the table stays bounded.
        for index in 0..<1_000 { #expect(limiter.check(key: "flood-\(index)", now: now) == .allowed) }
        #expect(limiter.check(key: "flood-999", now: now) == .limited(retryAfter: 60))
        #expect(limiter.check(key: "flood-997", now: now) == .limited(retryAfter: 60))
    }
}
