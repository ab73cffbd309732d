import JSON
import Storage

/// Revoking a device key (`DELETE /device-keys/{key_id}`), when the phone is lost or its biometry changed.
package struct DeviceKeyRevocation: Sendable {
    package let context: ServerContext

    /// Revokes the caller's key `keyID`. Revoking a revoked key is a no-op; another user's key is 404. Revoking a live
    /// key needs proof of the device or a fresh user-verified passkey login (`DeviceProof`, 403
    /// `device_proof_required` otherwise): a bare bearer token revokes nothing.
    /// - Parameter body: the request body, refused when it is not a JSON object, and its `device_proof` member; read
    ///   only for a live key.
    package func revoke(keyID: String, body: RequestFields<DeviceProofField>, caller: DeviceKeyCaller) async throws {
        let subject = caller.subject
        let key = try await DeviceKeyAccess(context: context).ownedKey(
            keyID, caller: caller, kind: .deviceKeyRevoked)
        guard key.status != .revoked else { return }
        let now = context.clock.now()
        let check = DeviceProofCheck(context: context)
        let proof = try check.presented(try body.get(), subject: subject, keys: [key], now: now)
        let refusal = try await context.store.write { writer -> OAuthError? in
            if let refusal = try check.refusal(
                proof, operation: .revokeKey, keys: [key], subject: subject, writer: writer, now: now)
            {
                _ = try writer.appendSecurityEvent(
                    DeviceKeyAuditEvent.refusal(
                        .deviceKeyRevoked, refusal, now: now, subject: subject, keyID: key.keyID,
                        deviceID: key.deviceID))
                return refusal
            }
            var state = key.state
            state.status = .revoked
            state.revokedAt = now
            _ = try writer.updateDeviceKeyState(keyID: key.keyID, userID: subject.sub, state: state)
            _ = try writer.appendSecurityEvent(
                DeviceKeyAuditEvent.make(
                    .deviceKeyRevoked, outcome: DeviceKeyAuditEvent.success, now: now, subject: subject,
                    keyID: key.keyID, deviceID: key.deviceID, reasonCode: "deleted",
                    detail: [JSONMember(key: "proof", value: .string(proof?.name ?? ""))]))
            return nil
        }
        if let refusal { throw refusal }
        context.metrics.count(event: "device_key:revoked")
    }

    /// Creates the value from its stored properties.
    package init(context: ServerContext) {
        self.context = context
    }
}
