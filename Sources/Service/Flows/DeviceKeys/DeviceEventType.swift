import Storage

/// What an app may report to `POST /device-events` about its key and the biometric prompt.
package enum DeviceEventType: String, Sendable, CaseIterable {
    case biometricSuccess = "biometric_success"
    case biometricFailure = "biometric_failure"
    case passwordFallback = "password_fallback"
    /// Biometry changed: the Secure Enclave / Keystore key is gone, so the server revokes it too.
    case keyInvalidated = "key_invalidated"

    /// The kind of security event a report of this type is recorded as. Today each is spelled like the request
    /// value, but the two are separate contracts: the wire value is the apps', the kind is the audit log's.
    package var auditKind: SecurityEvent.Kind {
        switch self {
        case .biometricSuccess: .biometricSuccess
        case .biometricFailure: .biometricFailure
        case .passwordFallback: .passwordFallback
        case .keyInvalidated: .keyInvalidated
        }
    }
}
