import Foundation
import Storage
import Testing

@testable import Commands
@testable import Endpoints
@testable import Service
@testable import passkeyd

@Suite("DeviceKeyLockout: consecutive failures lock")
struct DeviceKeyLockoutTests {
    static let now = Date(timeIntervalSince1970: 1_800_000_000)
    static let lockout = DeviceKeyLockout(maxFailures: 3)

    @Test("the third failed signature locks, at that instant")
    func signatures() {
        var state = DeviceKeyState(status: .active, failedAttempts: 0)
        for expected in 1...2 {
            state = Self.lockout.afterFailedSignature(state, now: Self.now)
            #expect(state.failedAttempts == expected)
            #expect(state.status == .active)
        }
        state = Self.lockout.afterFailedSignature(state, now: Self.now)
        #expect(state == DeviceKeyState(status: .locked, failedAttempts: 3, lockedAt: Self.now))
    }

    @Test("the unlock policy: the password is required from the third reported biometric failure on")
    func biometric() {
        #expect(!Self.lockout.requiresPassword(biometricFailures: 2))
        #expect(Self.lockout.requiresPassword(biometricFailures: 3))
        #expect(Self.lockout.requiresPassword(biometricFailures: 7))
        #expect(!Self.lockout.requiresPassword(nil))
    }

    @Test("a key that is not active is never re-locked (the lock time stays the first one)")
    func notActive() {
        let locked = DeviceKeyState(
            status: .locked, failedAttempts: 3, lockedAt: Date(timeIntervalSince1970: 1))
        let next = Self.lockout.afterFailedSignature(locked, now: Self.now)
        #expect(next.lockedAt == Date(timeIntervalSince1970: 1))
        #expect(next.status == .locked)
    }
}
