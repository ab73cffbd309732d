import DeviceKeys
import Foundation
import JSON
import Storage

/// Approving one action with the device key's signature over its challenge (`POST /device-keys/{key_id}/approvals`),
/// which buys an action token (`ActionTokenMinter`).
package struct DeviceKeyApproval: Sendable {
    package let context: ServerContext

    /// What the approval transaction decided; the transaction commits in every case (the challenge stays
    /// consumed, failure counts and events are kept), and the answer is made after it.
    package enum Outcome: Sendable {
        case approved(VerifiedApproval)
        case refused(OAuthError)
    }

    /// The action token of `answer` (the signed challenge, read once the key is known to be the caller's) for the
    /// caller's key `keyID`: `{action_token, token_type, expires_in, authorization_details: [action]}`.
    ///
    /// In one write transaction: the key must be active; the challenge is consumed on first presentation (of any
    /// number of concurrent approvals exactly one consumes it); the signature must verify over the stored
    /// document bytes. A bad signature counts towards the lockout; a verified one resets the count.
    package func approve(keyID: String, answer: RequestFields<SignedChallenge>, caller: DeviceKeyCaller) async throws
        -> TokenResponse
    {
        let subject = caller.subject
        let key = try await DeviceKeyAccess(context: context).ownedKey(
            keyID, caller: caller, kind: .deviceApproval)
        let signed = try answer.get()
        let now = context.clock.now()
        let maxFailures = context.configuration.deviceKeys.maxFailedAttempts
        let outcome = try await context.store.write { writer in
            try Self.decide(
                writer: writer, keyID: key.keyID, challengeID: signed.challengeID, signature: signed.signature,
                subject: subject, now: now, maxFailures: maxFailures)
        }
        switch outcome {
        case .refused(let refusal):
            throw refusal
        case .approved(let approval):
            context.metrics.count(event: "device_approval:success")
            return try await ActionTokenMinter(context: context).response(for: approval, subject: subject, now: now)
        }
    }

    /// The approval decision inside the write transaction `writer`. Throws only storage errors.
    package static func decide(
        writer: any StoreWriter, keyID: String, challengeID: String, signature: [UInt8],
        subject: AuthenticatedSubject, now: Date, maxFailures: Int
    ) throws -> Outcome {
        // Read again inside the transaction: a concurrent lock or revocation wins over this approval.
        guard let key = try writer.deviceKey(id: keyID, userID: subject.sub) else {
            return .refused(.deviceKeyNotFound(keyID))
        }
        func refuse(_ refusal: OAuthError, actionHash: [UInt8]? = nil, attempts: Int? = nil) throws -> Outcome {
            _ = try writer.appendSecurityEvent(
                DeviceKeyAuditEvent.refusal(
                    .deviceApproval, refusal, now: now, subject: subject, keyID: keyID,
                    deviceID: key.deviceID, actionHash: actionHash, attempts: attempts,
                    detail: [JSONMember(key: "challenge_id", value: .string(challengeID))]))
            return .refused(refusal)
        }
        switch key.status {
        case .active: break
        case .locked: return try refuse(.deviceKeyLocked)
        case .revoked: return try refuse(.deviceKeyRevoked)
        }
        // The unlock policy: after `maxFailures` reported biometric failures, approvals wait for a password (SRP)
        // or passkey login of the user (`DeviceKeyLockout`).
        let biometricFailures = try writer.fallbackCounter(key: FallbackCounterKey.biometric(keyID: keyID))
        if DeviceKeyLockout(maxFailures: maxFailures).requiresPassword(biometricFailures) {
            return try refuse(.passwordRequired, attempts: biometricFailures?.count)
        }
        let challenge: DeviceChallenge
        switch try writer.consumeDeviceChallenge(id: challengeID, keyID: keyID, userID: subject.sub, now: now) {
        case .consumed(let consumed):
            challenge = consumed
        case .alreadyConsumed(let stored):
            return try refuse(
                OAuthError(
                    .challengeAlreadyUsed, "The challenge was already used.", logCode: "challenge_replayed"),
                actionHash: stored.actionHash)
        case .expired(let stored):
            return try refuse(
                OAuthError(.expiredChallenge, "The challenge has expired.", logCode: "challenge_expired"),
                actionHash: stored.actionHash)
        case .notFound:
            // Unknown, or issued for another key (or user): the store does not touch a foreign challenge.
            return try refuse(
                OAuthError(
                    .invalidChallenge, "Unknown challenge for this device key.", logCode: "challenge_not_found"))
        }
        // A device-proof challenge (`DeviceProofAction`) proves the device for one operation and approves nothing.
        if let action = try? DeviceAction(jsonBytes: challenge.action), DeviceProofAction.check(action).reserved {
            return try refuse(
                OAuthError(
                    .invalidChallenge, "The challenge is a device proof, not an action to approve.",
                    logCode: "challenge_is_device_proof"),
                actionHash: challenge.actionHash)
        }
        let verification = verify(challenge: challenge, key: key, signature: signature, subject: subject, now: now)
        switch verification {
        case .success(let approval):
            var state = key.state
            state.failedAttempts = 0
            if state != key.state {
                _ = try writer.updateDeviceKeyState(keyID: keyID, userID: subject.sub, state: state)
            }
            _ = try writer.touchDeviceKey(keyID: keyID, userID: subject.sub, at: now)
            _ = try writer.appendSecurityEvent(
                DeviceKeyAuditEvent.make(
                    .deviceApproval, outcome: DeviceKeyAuditEvent.success, now: now, subject: subject,
                    keyID: keyID, deviceID: key.deviceID, actionHash: challenge.actionHash,
                    detail: [
                        JSONMember(key: "challenge_id", value: .string(challengeID)),
                        JSONMember(key: "action_type", value: .string(approval.action.type)),
                    ]))
            return .approved(approval)
        case .failure(let error) where error.code == .invalidSignature:
            // Consecutive failed signatures lock the key (`DeviceKeyLockout`, `device_keys.max_failed_attempts`).
            let lockout = DeviceKeyLockout(maxFailures: maxFailures)
            let state = lockout.afterFailedSignature(key.state, now: now)
            _ = try writer.updateDeviceKeyState(keyID: keyID, userID: subject.sub, state: state)
            let outcome = try refuse(
                .deviceKey(error), actionHash: challenge.actionHash, attempts: state.failedAttempts)
            if state.status == .locked {
                _ = try writer.appendSecurityEvent(
                    DeviceKeyAuditEvent.make(
                        .deviceKeyLocked, outcome: DeviceKeyAuditEvent.success, now: now, subject: subject,
                        keyID: keyID, deviceID: key.deviceID, reasonCode: "failed_signatures",
                        attempts: state.failedAttempts))
            }
            return outcome
        case .failure(let error):
            return try refuse(.deviceKey(error), actionHash: challenge.actionHash)
        }
    }

    /// The pure check (DeviceKeys): the stored document names this subject, key, challenge and action, is not
    /// expired, and the signature verifies over its exact bytes with the registered key.
    package static func verify(
        challenge: DeviceChallenge, key: DeviceKey, signature: [UInt8], subject: AuthenticatedSubject, now: Date
    ) -> Result<VerifiedApproval, DeviceKeyError> {
        do throws(DeviceKeyError) {
            let action = try DeviceAction(jsonBytes: challenge.action)
            let publicKey = try DevicePublicKey(importing: key.publicKey)
            return .success(
                try ApprovalVerifier.verify(
                    signature: signature, documentBytes: challenge.document, key: publicKey,
                    expectations: ApprovalExpectations(
                        challengeID: challenge.challengeID, keyID: key.keyID, subject: subject.sub, action: action,
                        now: now)))
        } catch {
            return .failure(error)
        }
    }

    /// Creates the value from its stored properties.
    package init(context: ServerContext) {
        self.context = context
    }
}
