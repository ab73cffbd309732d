import Foundation
import Testing

@testable import Tokens

@Suite("RefreshTokenPolicy: rotate, detect reuse, expire, honour revocation")
struct RefreshTokenPolicyTests {
    static let day: TimeInterval = 86_400
    static let login = Date(timeIntervalSince1970: 1_800_000_000)
    /// The configuration's defaults: 14 days idle, 30 days absolute.
    let policy = RefreshTokenPolicy(idleLifetime: 14 * Self.day, absoluteLifetime: 30 * Self.day)

    static func at(days: Double) -> Date { login.addingTimeInterval(days * day) }

    /// The state of the first token of a family issued at `login` by `policy`.
    var fresh: RefreshTokenState { RefreshTokenState(expiry: policy.firstExpiry(issuedAt: Self.login)) }

    @Test("a family's first token is idle-limited from the login, absolute-limited from the login")
    func firstExpiry() {
        #expect(
            policy.firstExpiry(issuedAt: Self.login)
                == RefreshTokenExpiry(idle: Self.at(days: 14), absolute: Self.at(days: 30)))
        let idleLonger = RefreshTokenPolicy(idleLifetime: 60, absoluteLifetime: 30)
        #expect(idleLonger.firstExpiry(issuedAt: Self.login).idle == Self.login.addingTimeInterval(30))
    }

    @Test("a live token rotates; the successor gets a new idle window and keeps the family's absolute end")
    func rotate() {
        let now = Self.at(days: 1)
        #expect(
            policy.decide(fresh, now: now)
                == .rotate(successor: RefreshTokenExpiry(idle: Self.at(days: 15), absolute: Self.at(days: 30))))
    }

    @Test("the successor never outlives the family's absolute lifetime")
    func absoluteCap() {
        let state = RefreshTokenState(expiry: RefreshTokenExpiry(idle: Self.at(days: 34), absolute: Self.at(days: 30)))
        #expect(
            policy.decide(state, now: Self.at(days: 25))
                == .rotate(successor: RefreshTokenExpiry(idle: Self.at(days: 30), absolute: Self.at(days: 30))))
    }

    @Test("a token idle until its idle end has expired; a second earlier it rotates")
    func idleExpiry() {
        #expect(policy.decide(fresh, now: Self.at(days: 14).addingTimeInterval(-1)) != .expired)
        #expect(policy.decide(fresh, now: Self.at(days: 14)) == .expired)
    }

    @Test("a family past its absolute end has expired even if the token is recent")
    func absoluteExpiry() {
        let recent = RefreshTokenState(expiry: RefreshTokenExpiry(idle: Self.at(days: 40), absolute: Self.at(days: 30)))
        #expect(policy.decide(recent, now: Self.at(days: 30).addingTimeInterval(-1)) != .expired)
        #expect(policy.decide(recent, now: Self.at(days: 30)) == .expired)
    }

    @Test("an already-rotated token is reuse, even after it expired")
    func reuse() {
        var state = fresh
        state.rotatedAt = Self.login.addingTimeInterval(60)
        #expect(policy.decide(state, now: Self.login.addingTimeInterval(120)) == .reuseDetected)
        #expect(policy.decide(state, now: Self.at(days: 40)) == .reuseDetected)
    }

    @Test("a revoked token is revoked, whatever else holds")
    func revoked() {
        var spent = fresh
        spent.rotatedAt = Self.login
        spent.revokedAt = Self.login
        #expect(policy.decide(spent, now: Self.login.addingTimeInterval(1)) == .revoked)
        var live = fresh
        live.revokedAt = Self.login
        #expect(policy.decide(live, now: Self.login.addingTimeInterval(1)) == .revoked)
        #expect(policy.decide(live, now: Self.at(days: 40)) == .revoked)
    }

    @Test("custom lifetimes are honoured")
    func custom() {
        let short = RefreshTokenPolicy(idleLifetime: 60, absoluteLifetime: 120)
        let state = RefreshTokenState(expiry: short.firstExpiry(issuedAt: Self.login))
        #expect(
            short.decide(state, now: Self.login.addingTimeInterval(59))
                == .rotate(
                    successor: RefreshTokenExpiry(
                        idle: Self.login.addingTimeInterval(119), absolute: Self.login.addingTimeInterval(120))))
        #expect(short.decide(state, now: Self.login.addingTimeInterval(60)) == .expired)
    }
}
