import Crypto
import Foundation
import JSON
import Storage

/// The steps the device-key flows share: finding the caller's key named by a request, refusing a key that is not
/// active, and recording security events. A key belongs to its user and no one else can see or use it: another
/// user's key id is answered exactly like an unknown one (404).
package struct DeviceKeyAccess: Sendable {
    package let context: ServerContext

    /// Longest key id accepted in a path; ours are 22 characters (16 random bytes, base64url).
    package static let maximumKeyIDLength = 64

    /// Whether `text` could be one of our key ids at all.
    package static func isKeyID(_ text: String) -> Bool {
        !text.isEmpty && text.utf8.count <= maximumKeyIDLength && Base64URL.isAlphabet(text)
    }

    /// The caller's key `keyID` (as the request's path gave it), or 404 `not_found` (recorded as a refusal of
    /// `kind`) when the id is malformed, unknown or another user's: the three are indistinguishable on the wire.
    package func ownedKey(_ keyID: String, caller: DeviceKeyCaller, kind: SecurityEvent.Kind) async throws -> DeviceKey
    {
        let subject = caller.subject
        if Self.isKeyID(keyID),
            let key = try await context.store.read({ try $0.deviceKey(id: keyID, userID: subject.sub) })
        {
            return key
        }
        let refusal = OAuthError.deviceKeyNotFound(keyID)
        try await record(
            DeviceKeyAuditEvent.refusal(
                kind, refusal, now: context.clock.now(), subject: subject,
                keyID: String(keyID.prefix(Self.maximumKeyIDLength))))
        throw refusal
    }

    /// Refuses a revoked or locked key for `kind`, recording the refusal.
    package func requireActive(_ key: DeviceKey, caller: DeviceKeyCaller, kind: SecurityEvent.Kind) async throws {
        let refusal: OAuthError
        switch key.status {
        case .active: return
        case .locked: refusal = .deviceKeyLocked
        case .revoked: refusal = .deviceKeyRevoked
        }
        try await record(
            DeviceKeyAuditEvent.refusal(
                kind, refusal, now: context.clock.now(), subject: caller.subject, keyID: key.keyID,
                deviceID: key.deviceID))
        throw refusal
    }

    /// Appends `events` in one write transaction.
    package func record(_ events: SecurityEvent...) async throws {
        try await context.store.write { writer in
            for event in events { _ = try writer.appendSecurityEvent(event) }
        }
    }

    /// Creates the value from its stored properties.
    package init(context: ServerContext) {
        self.context = context
    }
}
