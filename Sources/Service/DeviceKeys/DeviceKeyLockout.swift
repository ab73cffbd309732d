import Foundation
import Storage

/// The device-key lockout policy: `maxFailures` consecutive failed signatures lock the key until the user logs in
/// again with a passkey and unlocks it; only a verified approval resets that count.
///
/// The unlock policy of the biometric prompt is apart from it: `maxFailures` consecutive biometric failures
/// reported by the device (`/device-events`) make the key's approvals wait for the password — until an SRP login
/// (or a passkey login) of the user; a reported biometric success resets that count while it is below the limit.
package struct DeviceKeyLockout: Sendable {
    /// Failures that lock (`device_keys.max_failed_attempts`, 3 by default).
    package let maxFailures: Int

    /// The state after one more failed signature at `now`.
    package func afterFailedSignature(_ state: DeviceKeyState, now: Date) -> DeviceKeyState {
        lockingIfNeeded(state, failures: state.failedAttempts + 1, now: now)
    }

    /// Whether `biometricFailures` consecutive reported biometric failures require the password.
    package func requiresPassword(biometricFailures: Int) -> Bool {
        biometricFailures >= maxFailures
    }

    /// Whether the key's biometric failure count requires the password.
    package func requiresPassword(_ biometricFailures: FallbackCounter?) -> Bool {
        requiresPassword(biometricFailures: biometricFailures?.count ?? 0)
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

    /// Creates the value from its stored properties.
    package init(maxFailures: Int) {
        self.maxFailures = maxFailures
    }
}
