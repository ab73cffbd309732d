import Foundation
import Testing

@testable import Server

@Suite("Per-IP rate limiter")
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
        let limiter = RateLimiter(limit: 1, maxAddresses: 3)
        let now = Date(timeIntervalSince1970: 1_800_000_000)
        for index in 0..<10 { #expect(limiter.check(address: "a\(index)", now: now) == .allowed) }
    }
}
