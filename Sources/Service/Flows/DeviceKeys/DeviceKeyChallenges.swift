import Crypto
import DeviceKeys
import Foundation
import JSON
import Storage

/// Issuing the challenge a device signs to approve one action (`POST /device-keys/{key_id}/challenges`).
package struct DeviceKeyChallenges: Sendable {
    package let context: ServerContext

    /// `{challenge_id, challenge, expires_in, action}` for `action` on the caller's active key `keyID`.
    ///
    /// `challenge` is base64url of the exact bytes the device signs: the RFC 8785 form of the challenge document
    /// binding the subject, this key, the challenge id, 32 random bytes, the validity window and the SHA-256 of
    /// the action's canonical form. `action` is echoed in that canonical form (what the hash covers), for the app
    /// to show.
    /// - Parameter action: the request's `action` member, read once the key is known to be the caller's and active.
    package func issue(keyID: String, action actionField: RequestFields<JSONValue>, caller: DeviceKeyCaller)
        async throws -> JSONValue
    {
        let subject = caller.subject
        let access = DeviceKeyAccess(context: context)
        let key = try await access.ownedKey(keyID, caller: caller, kind: .deviceChallenge)
        try await access.requireActive(key, caller: caller, kind: .deviceChallenge)
        let actionValue = try actionField.get()
        let now = context.clock.now()
        let action: DeviceAction
        do throws(DeviceKeyError) {
            // RFC 9396 §2 shape and the review-sized limits (4 KiB, depth 5, 32 members, 255-character strings).
            action = try DeviceAction(validating: actionValue)
            // The reserved type is a device proof, exactly as `DeviceProofAction` spells one.
            let reserved = DeviceProofAction.check(action)
            if reserved.reserved, !reserved.valid {
                throw DeviceKeyError(
                    .invalidAuthorizationDetails,
                    "\(DeviceProofAction.type) takes exactly one more member, operation: "
                        + DeviceProofAction.Operation.allCases.map(\.rawValue).joined(separator: ", "))
            }
        } catch {
            let refusal = OAuthError.deviceKey(error)
            try await access.record(
                DeviceKeyAuditEvent.refusal(
                    .deviceChallenge, refusal, now: now, subject: subject, keyID: key.keyID,
                    deviceID: key.deviceID))
            throw refusal
        }
        let lifetime = TimeInterval(context.configuration.deviceKeys.challengeLifetimeSeconds)
        let document = try ChallengeDocument(
            issuer: context.configuration.issuer, subject: subject.sub, keyID: key.keyID,
            challengeID: try TokenService.randomIdentifier(),
            nonce: try SecureRandom.bytes(count: ChallengeDocument.nonceByteCount), issuedAt: now,
            expiresAt: now.addingTimeInterval(lifetime), action: action)
        // The stored expiry is the document's own `exp` (whole seconds), so the store and the verifier agree.
        let challenge = DeviceChallenge(
            challengeID: document.challengeID, keyID: key.keyID, userID: subject.sub, document: document.bytes,
            actionHash: document.actionSHA256, action: action.canonicalBytes, createdAt: now,
            expiresAt: Date(timeIntervalSince1970: TimeInterval(document.expiresAt)))
        try await context.store.write { writer in
            try writer.insertDeviceChallenge(challenge)
            _ = try writer.appendSecurityEvent(
                DeviceKeyAuditEvent.make(
                    .deviceChallenge, outcome: DeviceKeyAuditEvent.success, now: now, subject: subject,
                    keyID: key.keyID, deviceID: key.deviceID, actionHash: document.actionSHA256,
                    detail: [JSONMember(key: "challenge_id", value: .string(document.challengeID))]))
        }
        let canonicalAction = try JSONValue(parsing: action.canonicalBytes)
        return [
            "challenge_id": .string(document.challengeID),
            "challenge": .string(document.base64URLEncoded),
            "expires_in": JSONValue(Int(document.expiresAt - document.issuedAt)),
            "action": canonicalAction,
        ]
    }

    /// Creates the value from its stored properties.
    package init(context: ServerContext) {
        self.context = context
    }
}
