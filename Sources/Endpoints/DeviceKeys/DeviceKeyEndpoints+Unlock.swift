import Foundation
import HTTP
import JSON
import Service
import Storage

extension DeviceKeyEndpoints {
    /// `POST /device-keys/{key_id}/unlock` → 200 with the key. A locked key unlocks only with an access token
    /// whose `auth_time` is after the lock: the user has logged in again with a passkey since. An active key is
    /// answered as is; a revoked one stays revoked.
    package func unlock(_ request: Request) async throws -> Response {
        let subject = try await authenticate(request)
        let key = try await ownedKey(request, subject: subject, kind: DeviceKeyAuditEvent.unlocked)
        switch key.status {
        case .active:
            return .json(DeviceKeyRepresentation.json(key))
        case .revoked:
            try await requireActive(key, subject: subject, kind: DeviceKeyAuditEvent.unlocked)
            return .json(DeviceKeyRepresentation.json(key))
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
            try await record(
                DeviceKeyAuditEvent.refusal(
                    DeviceKeyAuditEvent.unlocked, refusal, now: now, subject: subject, keyID: key.keyID,
                    deviceID: key.deviceID))
            throw refusal
        }
        var unlocked = key
        unlocked.state = DeviceKeyState(status: .active, failedAttempts: 0)
        try await context.store.write { [unlocked] writer in
            _ = try writer.updateDeviceKeyState(keyID: key.keyID, userID: subject.sub, state: unlocked.state)
            _ = try writer.appendSecurityEvent(
                DeviceKeyAuditEvent.make(
                    DeviceKeyAuditEvent.unlocked, outcome: DeviceKeyAuditEvent.success, now: now, subject: subject,
                    keyID: key.keyID, deviceID: key.deviceID,
                    detail: [JSONMember(key: "auth_time", value: RFC3339.timestamp(authTime))]))
        }
        context.metrics.count(event: "device_key:unlocked")
        return .json(DeviceKeyRepresentation.json(unlocked))
    }
}
