/// What an app may report to `POST /device-events` about its key and the biometric prompt.
package enum DeviceEventType: String, Sendable, CaseIterable {
    case biometricSuccess = "biometric_success"
    case biometricFailure = "biometric_failure"
    case passwordFallback = "password_fallback"
    /// Biometry changed: the Secure Enclave / Keystore key is gone, so the server revokes it too.
    case keyInvalidated = "key_invalidated"
}
