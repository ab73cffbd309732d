import Foundation
import Testing

@testable import Tokens

@Suite("RefreshTokenPolicy: rotate, detect reuse, expire, honour revocation")
struct RefreshTokenPolicyTests {
    static let day: TimeInterval = 86_400
    static let login = Date(timeIntervalSince1970: 1_800_000_000)
    let policy = RefreshTokenPolicy()

    @Test("defaults are 14 days idle and 30 days absolute")
    func defaults() {
        #expect(policy.idleLifetime == 14 * Self.day && policy.absoluteLifetime == 30 * Self.day)
    }

    @Test("a fresh token rotates; the successor gets a new idle window")
    func rotate() {
        let state = RefreshTokenState(familyCreatedAt: Self.login, issuedAt: Self.login)
        let now = Self.login.addingTimeInterval(Self.day)
        #expect(policy.decide(state, now: now) == .rotate(successorExpiresAt: now.addingTimeInterval(14 * Self.day)))
    }

    @Test("the successor never outlives the family's absolute lifetime")
    func absoluteCap() {
        let state = RefreshTokenState(
            familyCreatedAt: Self.login, issuedAt: Self.login.addingTimeInterval(20 * Self.day))
        let now = Self.login.addingTimeInterval(25 * Self.day)
        #expect(
            policy.decide(state, now: now) == .rotate(successorExpiresAt: Self.login.addingTimeInterval(30 * Self.day)))
    }

    @Test("a token idle for 14 days has expired")
    func idleExpiry() {
        let state = RefreshTokenState(familyCreatedAt: Self.login, issuedAt: Self.login)
        #expect(policy.decide(state, now: Self.login.addingTimeInterval(14 * Self.day - 1)) != .expired)
        #expect(policy.decide(state, now: Self.login.addingTimeInterval(14 * Self.day)) == .expired)
    }

    @Test("a family older than 30 days has expired even if the token is recent")
    func absoluteExpiry() {
        let state = RefreshTokenState(
            familyCreatedAt: Self.login, issuedAt: Self.login.addingTimeInterval(29 * Self.day))
        #expect(policy.decide(state, now: Self.login.addingTimeInterval(30 * Self.day)) == .expired)
    }

    @Test("an already-rotated token is reuse, even after it expired")
    func reuse() {
        let state = RefreshTokenState(
            familyCreatedAt: Self.login, issuedAt: Self.login, consumedAt: Self.login.addingTimeInterval(60))
        #expect(policy.decide(state, now: Self.login.addingTimeInterval(120)) == .reuseDetected)
        #expect(policy.decide(state, now: Self.login.addingTimeInterval(40 * Self.day)) == .reuseDetected)
    }

    @Test("a revoked family is revoked, whatever else holds")
    func revoked() {
        let state = RefreshTokenState(
            familyCreatedAt: Self.login, issuedAt: Self.login, consumedAt: Self.login, familyRevokedAt: Self.login)
        #expect(policy.decide(state, now: Self.login.addingTimeInterval(1)) == .revoked)
        let fresh = RefreshTokenState(familyCreatedAt: Self.login, issuedAt: Self.login, familyRevokedAt: Self.login)
        #expect(policy.decide(fresh, now: Self.login.addingTimeInterval(1)) == .revoked)
    }

    @Test("custom lifetimes are honoured")
    func custom() {
        let short = RefreshTokenPolicy(idleLifetime: 60, absoluteLifetime: 120)
        let state = RefreshTokenState(familyCreatedAt: Self.login, issuedAt: Self.login)
        #expect(
            short.decide(state, now: Self.login.addingTimeInterval(59))
                == .rotate(successorExpiresAt: Self.login.addingTimeInterval(119)))
        #expect(short.decide(state, now: Self.login.addingTimeInterval(60)) == .expired)
    }
}
