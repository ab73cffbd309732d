import Foundation
import JSON
import Storage

/// What only the device sees, reported by the app (`POST /device-events`): recorded in the audit log, then applied by
/// the unlock policy (`DeviceKeyLockout`) to the device's keys.
package struct DeviceEventReporting: Sendable {
    package let context: ServerContext

    /// What the event's write decided: recorded (with the device's keys after the policy), or refused for want of
    /// proof of the device (the refusal's own event committed instead, nothing else written).
    package enum Outcome: Sendable {
        case recorded(SecurityEvent, [(key: DeviceKey, passwordRequired: Bool)])
        case refused(OAuthError)
    }

    /// Records `report` for the caller and applies the policy → `{event_id, received_at, keys}`.
    ///
    /// Recorded with the server's UTC time (the device's `occurred_at` is kept as information only), then the
    /// unlock policy (`DeviceKeyLockout`): biometric failures count towards the key's "password required" state
    /// (at `device_keys.max_failed_attempts`, approvals wait for an SRP or passkey login), a biometric success
    /// resets that count below the limit, `key_invalidated` revokes the device's keys (the replacement is enrolled
    /// after a passkey login, as every key). `keys` lists the device's keys with their status and
    /// `password_required` after the policy.
    ///
    /// The reports that would take something from the user — `key_invalidated` of a live key, and the
    /// `biometric_failure` that reaches the lockout — need proof of the device (`DeviceProof`): without it they are
    /// refused (403 `device_proof_required`, recorded) and nothing is counted, so a stolen bearer token can neither
    /// revoke a user's keys nor force them onto the password path.
    package func report(_ report: DeviceEventReport, caller: DeviceKeyCaller) async throws -> JSONValue {
        let subject = caller.subject
        let (deviceID, type, attempts) = (report.deviceID, report.type, report.attempts)
        let now = context.clock.now()
        let lockout = DeviceKeyLockout(maxFailures: context.configuration.deviceKeys.maxFailedAttempts)
        // The device's live keys as read before the write, for the DPoP binding of the proof; the write reads
        // them again and judges the proof against what it reads.
        let liveKeys = try await context.store.read { try $0.deviceKeys(userID: subject.sub) }.filter {
            $0.deviceID == deviceID && $0.status != .revoked
        }
        let check = DeviceProofCheck(context: context)
        let proof = try check.presented(report.deviceProof, subject: subject, keys: liveKeys, now: now)
        let outcome = try await context.store.write { writer -> Outcome in
            let deviceKeys = try writer.deviceKeys(userID: subject.sub).filter { $0.deviceID == deviceID }
            if let operation = try Self.destructiveOperation(
                type, attempts: attempts, keys: deviceKeys, lockout: lockout, reader: writer),
                let refusal = try check.refusal(
                    proof, operation: operation, keys: deviceKeys.filter { $0.status != .revoked }, subject: subject,
                    writer: writer, now: now)
            {
                _ = try writer.appendSecurityEvent(
                    DeviceKeyAuditEvent.refusal(
                        type.auditKind, refusal, now: now, subject: subject, keyID: nil, deviceID: deviceID,
                        attempts: attempts, detail: [JSONMember(key: "operation", value: .string(operation.rawValue))]))
                return .refused(refusal)
            }
            let event = try writer.appendSecurityEvent(
                DeviceKeyAuditEvent.make(
                    type.auditKind, outcome: DeviceKeyAuditEvent.reported, now: now, subject: subject,
                    deviceID: deviceID, attempts: attempts, deviceTime: report.deviceTime))
            var keys: [(key: DeviceKey, passwordRequired: Bool)] = []
            for var key in deviceKeys {
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
                                .deviceKeyPasswordRequired, outcome: DeviceKeyAuditEvent.success,
                                now: now, userID: subject.sub, clientID: subject.clientID, keyID: key.keyID,
                                deviceID: deviceID, reasonCode: "biometric_failures",
                                attempts: biometricFailures?.count))
                    }
                case .biometricSuccess where !lockout.requiresPassword(biometricFailures):
                    // Below the limit only: once the password is required, only a login lifts it.
                    if biometricFailures != nil { _ = try writer.resetFallbackCounters(keys: [counterKey]) }
                    biometricFailures = nil
                case .keyInvalidated where key.status != .revoked:
                    // Biometry changed: the Secure Enclave / Keystore key is gone.
                    key.status = .revoked
                    key.revokedAt = now
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
            return .recorded(event, keys)
        }
        let (event, keys): (SecurityEvent, [(key: DeviceKey, passwordRequired: Bool)])
        switch outcome {
        case .refused(let refusal): throw refusal
        case .recorded(let recorded, let deviceKeys): (event, keys) = (recorded, deviceKeys)
        }
        context.metrics.count(event: "device_event:\(type.rawValue)")
        return [
            "event_id": .string(String(event.seq)),
            "received_at": RFC3339.timestamp(now),
            "keys": .array(
                keys.map {
                    [
                        "key_id": .string($0.key.keyID), "status": .string($0.key.status.rawValue),
                        "password_required": .bool($0.passwordRequired),
                    ]
                }),
        ]
    }

    /// The operation that needs proof of the device in a report of `type` about `keys` (the device's keys), if any:
    /// `key_invalidated` while a key is not revoked yet, and a `biometric_failure` that takes an active key's count
    /// to the lockout (from below it: a key already requiring the password changes no further).
    private static func destructiveOperation(
        _ type: DeviceEventType, attempts: Int?, keys: [DeviceKey], lockout: DeviceKeyLockout, reader: any StoreReader
    ) throws -> DeviceProofAction.Operation? {
        switch type {
        case .keyInvalidated:
            return keys.contains { $0.status != .revoked } ? .keyInvalidated : nil
        case .biometricFailure:
            for key in keys where key.status == .active {
                let count = try reader.fallbackCounter(key: FallbackCounterKey.biometric(keyID: key.keyID))?.count ?? 0
                let target = min(max(count + 1, attempts ?? 0), lockout.maxFailures)
                if !lockout.requiresPassword(biometricFailures: count),
                    lockout.requiresPassword(biometricFailures: target)
                {
                    return .biometricLockout
                }
            }
            return nil
        case .biometricSuccess, .passwordFallback:
            return nil
        }
    }

    /// The lock or revocation event a device event caused, if it changed the key's status.
    private static func policyEvent(
        _ key: DeviceKey, before: DeviceKeyState, now: Date, subject: AuthenticatedSubject, cause: SecurityEvent
    ) -> SecurityEvent? {
        guard key.status != before.status else { return nil }
        let kind: SecurityEvent.Kind = key.status == .revoked ? .deviceKeyRevoked : .deviceKeyLocked
        let reason = key.status == .revoked ? "key_invalidated" : "biometric_failures"
        return DeviceKeyAuditEvent.make(
            kind, outcome: DeviceKeyAuditEvent.success, now: now, subject: subject, keyID: key.keyID,
            deviceID: key.deviceID, reasonCode: reason, attempts: key.failedAttempts,
            detail: [JSONMember(key: "event_seq", value: JSONValue(Int(cause.seq)))])
    }

    /// Creates the value from its stored properties.
    package init(context: ServerContext) {
        self.context = context
    }
}
