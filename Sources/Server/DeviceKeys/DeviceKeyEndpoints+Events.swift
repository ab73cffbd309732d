import Foundation
import HTTP
import Storage

extension DeviceKeyEndpoints {
    /// What an app may report to `POST /device-events` about its key and the biometric prompt.
    enum DeviceEventType: String, Sendable, CaseIterable {
        case biometricSuccess = "biometric_success"
        case biometricFailure = "biometric_failure"
        case passwordFallback = "password_fallback"
        /// Biometry changed: the Secure Enclave / Keystore key is gone, so the server revokes it too.
        case keyInvalidated = "key_invalidated"
    }

    /// Largest `attempts` accepted.
    static let maximumReportedAttempts = 1000

    /// `POST /device-events` `{device_id, type, attempts?, occurred_at?}` → 200 `{event_id, received_at, keys}`.
    ///
    /// Recorded with the server's UTC time (the device's `occurred_at` is kept as information only), then the
    /// unlock policy (`DeviceKeyLockout`): biometric failures count towards the key's "password required" state
    /// (at `device_keys.max_failed_attempts`, approvals wait for an SRP or passkey login), a biometric success
    /// resets that count below the limit, `key_invalidated` revokes the device's keys and marks the user so that
    /// the replacement key needs a recent login. `keys` lists the device's keys with their status and
    /// `password_required` after the policy.
    func deviceEvent(_ request: Request) async throws -> Response {
        let subject = try await authenticate(request)
        let body = try Self.bodyObject(request)
        let parameters = Self.parameters(body)
        let deviceID = try parameters.string("device_id", maxLength: Self.maximumDeviceIDLength)
        let typeText = try parameters.string("type", maxLength: 64)
        guard let type = DeviceEventType(rawValue: typeText) else {
            throw OAuthError.invalidParameter("type", reason: "unknown event type \(typeText.prefix(64))")
        }
        let attempts = try Self.attempts(body["attempts"])
        let deviceTime = try Self.deviceTime(body["occurred_at"])
        let now = context.clock.now()
        // Each accepted event writes rows that are kept: at most `device_keys.events_per_user_per_minute` of
        // them per user; beyond it 429 and nothing is written.
        try EndpointHandler.enforce(
            context.deviceEventLimiter.check(key: subject.sub, now: now),
            description: "Too many device events. Try again later.", logCode: "device_events_limited",
            reason: "user over \(context.configuration.deviceKeys.eventsPerUserPerMinute) device events/min")
        let lockout = DeviceKeyLockout(maxFailures: context.configuration.deviceKeys.maxFailedAttempts)
        let (event, keys) = try await context.store.write { writer in
            let event = try writer.appendSecurityEvent(
                DeviceKeyAuditEvent.make(
                    type.rawValue, outcome: DeviceKeyAuditEvent.reported, now: now, subject: subject,
                    deviceID: deviceID, attempts: attempts, deviceTime: deviceTime))
            var keys: [(key: DeviceKey, passwordRequired: Bool)] = []
            for var key in try writer.deviceKeys(userID: subject.sub) where key.deviceID == deviceID {
                let before = key.state
                let counterKey = FallbackCounterKey.biometric(keyID: key.keyID)
                var biometricFailures = try writer.fallbackCounter(key: counterKey)
                switch type {
                case .biometricFailure where key.status == .active:
                    // Each report counts once, or up to the device's own count of consecutive failures.
                    let wasRequired = lockout.requiresPassword(biometricFailures)
                    let target = min(max((biometricFailures?.count ?? 0) + 1, attempts ?? 0), lockout.maxFailures)
                    repeat {
                        biometricFailures = try writer.incrementFallbackCounter(
                            key: counterKey, now: now, restartingBefore: nil)
                    } while (biometricFailures?.count ?? 0) < target
                    if !wasRequired, lockout.requiresPassword(biometricFailures) {
                        _ = try writer.appendSecurityEvent(
                            PasswordFallbackAuditEvent.make(
                                PasswordFallbackAuditEvent.passwordRequired, outcome: DeviceKeyAuditEvent.success,
                                now: now, userID: subject.sub, clientID: subject.clientID, keyID: key.keyID,
                                deviceID: deviceID, reasonCode: "biometric_failures",
                                attempts: biometricFailures?.count))
                    }
                case .biometricSuccess where !lockout.requiresPassword(biometricFailures):
                    // Below the limit only: once the password is required, only a login lifts it.
                    if biometricFailures != nil { _ = try writer.resetFallbackCounters(keys: [counterKey]) }
                    biometricFailures = nil
                case .keyInvalidated where key.status != .revoked:
                    key.status = .revoked
                    key.revokedAt = now
                // Biometry changed: the replacement's enrolment may then use a recent password login as its
                // step-up (DeviceKeyEndpoints+Enrolment.swift reads this revocation's event).
                default:
                    break
                }
                if key.state != before {
                    _ = try writer.updateDeviceKeyState(keyID: key.keyID, userID: subject.sub, state: key.state)
                    if let policy = Self.policyEvent(key, before: before, now: now, subject: subject, cause: event) {
                        _ = try writer.appendSecurityEvent(policy)
                    }
                }
                keys.append((key, key.status == .active && lockout.requiresPassword(biometricFailures)))
            }
            return (event, keys)
        }
        context.metrics.count(event: "device_event:\(type.rawValue)")
        let answer: JSONValue = [
            "event_id": .string(String(event.seq)),
            "received_at": DeviceKeyRepresentation.timestamp(now),
            "keys": .array(
                keys.map {
                    [
                        "key_id": .string($0.key.keyID), "status": .string($0.key.status.rawValue),
                        "password_required": .bool($0.passwordRequired),
                    ]
                }),
        ]
        return .json(answer)
    }

    /// The lock or revocation event a device event caused, if it changed the key's status.
    private static func policyEvent(
        _ key: DeviceKey, before: DeviceKeyState, now: Date, subject: AuthenticatedSubject, cause: SecurityEvent
    ) -> SecurityEvent? {
        guard key.status != before.status else { return nil }
        let kind = key.status == .revoked ? DeviceKeyAuditEvent.revoked : DeviceKeyAuditEvent.locked
        let reason = key.status == .revoked ? "key_invalidated" : "biometric_failures"
        return DeviceKeyAuditEvent.make(
            kind, outcome: DeviceKeyAuditEvent.success, now: now, subject: subject, keyID: key.keyID,
            deviceID: key.deviceID, reasonCode: reason, attempts: key.failedAttempts,
            detail: [JSONMember(key: "event_seq", value: JSONValue(Int(cause.seq)))])
    }

    /// `attempts`: absent/null, or an integer 0…1000.
    private static func attempts(_ value: JSONValue?) throws -> Int? {
        guard let value, !value.isNull else { return nil }
        guard let count = value.intValue, (0...maximumReportedAttempts).contains(count) else {
            throw OAuthError.invalidParameter("attempts", reason: "is not an integer in 0...\(maximumReportedAttempts)")
        }
        return count
    }

    /// `occurred_at`: absent/null, an RFC 3339 date-time, or seconds since the epoch. Information only.
    private static func deviceTime(_ value: JSONValue?) throws -> Date? {
        guard let value, !value.isNull else { return nil }
        if let text = value.stringValue, text.utf8.count <= 64,
            let date = DeviceKeyRepresentation.date(fromRFC3339: text)
        {
            return date
        }
        if let seconds = value.doubleValue, seconds.isFinite, (0...4_102_444_800).contains(seconds) {
            return Date(timeIntervalSince1970: seconds)
        }
        throw OAuthError.invalidParameter("occurred_at", reason: "is not an RFC 3339 date-time or epoch seconds")
    }
}
