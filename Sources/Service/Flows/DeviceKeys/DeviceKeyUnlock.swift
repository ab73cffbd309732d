import JSON
import Storage

/// Unlocking a device key locked by failed signatures (`POST /device-keys/{key_id}/unlock`).
package struct DeviceKeyUnlock: Sendable {
    package let context: ServerContext

    /// The caller's key `keyID` after the unlock (`DeviceKeyRepresentation`). A locked key unlocks only with an
    /// access token whose `auth_time` is after the lock: the user has logged in again with a passkey since. An
    /// active key is answered as is; a revoked one stays revoked (refused).
    package func unlock(keyID: String, caller: DeviceKeyCaller) async throws -> JSONValue {
        let subject = caller.subject
        let access = DeviceKeyAccess(context: context)
        let key = try await access.ownedKey(keyID, caller: caller, kind: .deviceKeyUnlocked)
        switch key.status {
        case .active:
            return DeviceKeyRepresentation.json(key)
        case .revoked:
            try await access.requireActive(key, caller: caller, kind: .deviceKeyUnlocked)
            return DeviceKeyRepresentation.json(key)
        case .locked:
            break
        }
        let now = context.clock.now()
        // A login after the lock (strictly: one made before it, even within its second, never unlocks) that
        // verified the user with a passkey (RFC 8176 `user`): a password-only login (`pwd`) never unlocks a device key.
        guard let authTime = subject.authTime, let lockedAt = key.lockedAt,
            FreshLoginRequirement.isLogin(of: subject, after: lockedAt)
        else {
            let refusal = OAuthError.unlockNeedsFreshLogin
            try await access.record(
                DeviceKeyAuditEvent.refusal(
                    .deviceKeyUnlocked, refusal, now: now, subject: subject, keyID: key.keyID,
                    deviceID: key.deviceID))
            throw refusal
        }
        var unlocked = key
        unlocked.state = DeviceKeyState(status: .active, failedAttempts: 0)
        try await context.store.write { [unlocked] writer in
            _ = try writer.updateDeviceKeyState(keyID: key.keyID, userID: subject.sub, state: unlocked.state)
            _ = try writer.appendSecurityEvent(
                DeviceKeyAuditEvent.make(
                    .deviceKeyUnlocked, outcome: DeviceKeyAuditEvent.success, now: now, subject: subject,
                    keyID: key.keyID, deviceID: key.deviceID,
                    detail: [JSONMember(key: "auth_time", value: RFC3339.timestamp(authTime))]))
        }
        context.metrics.count(event: "device_key:unlocked")
        return DeviceKeyRepresentation.json(unlocked)
    }

    /// Creates the value from its stored properties.
    package init(context: ServerContext) {
        self.context = context
    }
}
