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

    /// A token rotated at `rotated` seconds after the login into a successor in `successor`'s state.
    func spent(at rotated: TimeInterval, successor: RefreshTokenState.Successor?) -> RefreshTokenState {
        var state = fresh
        state.rotatedAt = Self.login.addingTimeInterval(rotated)
        state.successor = successor
        return state
    }

    @Test("a rotated token presented again within the grace window, its successor unused, is a retry")
    func retry() {
        let graceful = RefreshTokenPolicy(idleLifetime: 14 * Self.day, absoluteLifetime: 30 * Self.day, reuseGrace: 10)
        let state = spent(at: 60, successor: RefreshTokenState.Successor())
        let now = Self.login.addingTimeInterval(69)
        // The retry's successor expires as a rotation's would.
        #expect(
            graceful.decide(state, now: now)
                == .retry(
                    successor: RefreshTokenExpiry(
                        idle: now.addingTimeInterval(14 * Self.day), absolute: Self.at(days: 30))))
        // A node whose clock is behind the rotating node's: still recent.
        #expect(graceful.decide(state, now: Self.login.addingTimeInterval(59)) != .reuseDetected)
        // Without a grace window (the policy's default, and the setting at 0), it is reuse.
        #expect(policy.decide(state, now: now) == .reuseDetected)
    }

    @Test("outside the window, after the successor was presented or revoked, or with no successor known: reuse")
    func retryLimits() {
        let graceful = RefreshTokenPolicy(idleLifetime: 14 * Self.day, absoluteLifetime: 30 * Self.day, reuseGrace: 10)
        let unused = RefreshTokenState.Successor()
        #expect(
            graceful.decide(spent(at: 60, successor: unused), now: Self.login.addingTimeInterval(70)) == .reuseDetected)
        let presented = RefreshTokenState.Successor(rotatedAt: Self.login.addingTimeInterval(61))
        #expect(
            graceful.decide(spent(at: 60, successor: presented), now: Self.login.addingTimeInterval(62))
                == .reuseDetected)
        let revoked = RefreshTokenState.Successor(revokedAt: Self.login.addingTimeInterval(61))
        #expect(
            graceful.decide(spent(at: 60, successor: revoked), now: Self.login.addingTimeInterval(62)) == .reuseDetected
        )
        #expect(
            graceful.decide(spent(at: 60, successor: nil), now: Self.login.addingTimeInterval(62)) == .reuseDetected)
        // Past the family's absolute end, nothing is issued any more.
        let late = spent(at: 30 * Self.day - 5, successor: unused)
        #expect(graceful.decide(late, now: Self.at(days: 30)) == .reuseDetected)
        // A revoked family stays revoked.
        var revokedFamily = spent(at: 60, successor: unused)
        revokedFamily.revokedAt = Self.login.addingTimeInterval(61)
        #expect(graceful.decide(revokedFamily, now: Self.login.addingTimeInterval(62)) == .revoked)
    }
}
