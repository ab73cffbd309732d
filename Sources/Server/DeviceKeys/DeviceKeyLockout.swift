import Foundation
import Storage

/// The device-key lockout policy: `maxFailures` consecutive failed signatures, or as many biometric failures
/// reported by the device, lock the key until the user logs in again with a passkey and unlocks it. Only a
/// verified approval resets the count (a reported biometric success proves nothing to the server).
struct DeviceKeyLockout: Sendable {
    /// Failures that lock (`device_keys.max_failed_attempts`, 3 by default).
    let maxFailures: Int

    /// The state after one more failed signature at `now`.
    func afterFailedSignature(_ state: DeviceKeyState, now: Date) -> DeviceKeyState {
        lockingIfNeeded(state, failures: state.failedAttempts + 1, now: now)
    }

    /// The state after the device reported a biometric failure; `attempts` is the device's own count of
    /// consecutive failures, if it sent one (each report counts at least once).
    func afterBiometricFailure(_ state: DeviceKeyState, attempts: Int?, now: Date) -> DeviceKeyState {
        lockingIfNeeded(state, failures: max(state.failedAttempts + 1, attempts ?? 0), now: now)
    }

    private func lockingIfNeeded(_ state: DeviceKeyState, failures: Int, now: Date) -> DeviceKeyState {
        var next = state
        next.failedAttempts = failures
        if state.status == .active, failures >= maxFailures {
            next.status = .locked
            next.lockedAt = now
        }
        return next
    }
}
