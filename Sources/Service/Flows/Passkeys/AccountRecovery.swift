import Foundation
import Storage

/// What the two steps of account recovery with a recovery code share (`RecoveryChallenge`, then `RecoveryGrant`):
/// how a recovery session is marked, how long it lives, how the identifier is read, and the throttle both apply.
package enum AccountRecovery {
    /// Marks a recovery session among the login sessions (`AuthSession.name`); the identifier is its `username`.
    package static let sessionMarker = "recovery"
    /// How long the session can be answered, in seconds.
    package static let sessionLifetime: TimeInterval = 300

    /// The identifier as sign-up stores it: an email address lower-cased, a phone number in E.164, a username
    /// lower-cased; `nil` when it is none of them (then it finds no user).
    package static func normalized(_ text: String) -> String? {
        if text.contains("@") { return try? UserProfile.normalizedEmail(text) }
        if text.hasPrefix("+") { return try? UserProfile.normalizedPhoneNumber(text) }
        return text.lowercased()
    }

    /// The user of `realm` with `identifier` as an email, phone number or username.
    package static func lookup(_ reader: any StoreReader, realm: String, identifier: String) throws -> User? {
        for candidate in [
            UserIdentifier.email(identifier), .phoneNumber(identifier), .username(identifier),
        ] {
            if let user = try reader.user(realm: realm, identifier: candidate) { return user }
        }
        return nil
    }

    /// The password fallback's throttle (one mechanism, the same cooling period and network counts), with at most
    /// `RecoveryThrottleKeys.maximumFailures` failures of an identifier.
    package static func throttle(_ configuration: ServerConfiguration) -> SRPThrottle {
        var settings = configuration.srp
        settings.maxFailures = min(settings.maxFailures, RecoveryThrottleKeys.maximumFailures)
        settings.delayAfterFailures = min(settings.delayAfterFailures, settings.maxFailures)
        return SRPThrottle(settings)
    }

    /// Refuses an attempt the throttle delays or locks, recording it; returns when it is allowed.
    package static func enforce(
        _ decision: SRPThrottle.Decision, userID: String?, clientID: String, attempts: Int?, now: Date,
        store: any Store
    ) async throws {
        let refusal: OAuthError
        switch decision {
        case .allowed: return
        case .delayed(let retryAfter): refusal = PasskeyLifecycleRefusal.recoveryDelayed(retryAfter: retryAfter)
        case .locked(let retryAfter): refusal = PasskeyLifecycleRefusal.recoveryLocked(retryAfter: retryAfter)
        }
        try await store.write { writer in
            _ = try writer.appendSecurityEvent(
                PasskeyLifecycleAuditEvent.make(
                    .recoveryAttempt, outcome: PasskeyLifecycleAuditEvent.failure, now: now,
                    userID: userID, clientID: clientID, reasonCode: refusal.logCode, attempts: attempts))
        }
        throw refusal
    }
}
