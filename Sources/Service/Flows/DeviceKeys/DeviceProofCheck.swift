import DeviceKeys
import Foundation
import Storage

/// A request's `device_proof` member as its endpoint read it: `nil` when absent or `null`, the signed device-proof
/// challenge, or the refusal of a malformed member — read only when no DPoP proof by the bound key came first
/// (`DeviceProofCheck.presented`).
package typealias DeviceProofField = RequestFields<SignedChallenge?>

/// The judgement of proof of the device (`DeviceProof`) for the destructive operations on a device's keys: which
/// proof a request presents, and whether it holds for the operation.
package struct DeviceProofCheck: Sendable {
    package let context: ServerContext

    /// The proof of the device `subject`'s request presents for an operation on `keys` (the device's keys), or nil
    /// when it presents none, in this order: a DPoP proof by the key bound to one of `keys` at enrolment; the
    /// `device_proof` member `{challenge_id, signature}` (`field`, checked later, in the operation's write, by
    /// `refusal`); a fresh user-verified passkey login.
    /// - Throws: the refusal of a malformed `device_proof` (400 `invalid_request`).
    package func presented(_ field: DeviceProofField, subject: AuthenticatedSubject, keys: [DeviceKey], now: Date)
        throws -> DeviceProof?
    {
        if let bound = subject.dpopThumbprint, keys.contains(where: { $0.dpopThumbprint == bound }) {
            return .boundDPoPKey
        }
        if let signed = try field.get() {
            return .signature(challengeID: signed.challengeID, signature: signed.signature)
        }
        let requirement = FreshLoginRequirement(for: .deviceProof, in: context.configuration)
        if case .success = requirement.check(subject, now: now) { return .freshLogin }
        return nil
    }

    /// The refusal of `operation` on `keys` under `proof`, judged inside the operation's write `writer` (nil when
    /// the proof holds): none presented is 403 `device_proof_required`; a signature proof consumes its challenge —
    /// which must be one of `keys`' and carry `operation`'s device-proof action — and must verify with that key over
    /// the challenge's exact bytes. Throws only storage errors.
    package func refusal(
        _ proof: DeviceProof?, operation: DeviceProofAction.Operation, keys: [DeviceKey],
        subject: AuthenticatedSubject, writer: any StoreWriter, now: Date
    ) throws -> OAuthError? {
        switch proof {
        case .none:
            return DeviceProof.required(
                operation, maxAge: FreshLoginRequirement.maxAge(for: .deviceProof, in: context.configuration))
        case .boundDPoPKey, .freshLogin:
            return nil
        case .signature(let challengeID, let signature):
            return try Self.signatureRefusal(
                challengeID: challengeID, signature: signature, operation: operation, keys: keys, subject: subject,
                writer: writer, now: now)
        }
    }

    /// The signature part of `refusal`.
    private static func signatureRefusal(
        challengeID: String, signature: [UInt8], operation: DeviceProofAction.Operation, keys: [DeviceKey],
        subject: AuthenticatedSubject, writer: any StoreWriter, now: Date
    ) throws -> OAuthError? {
        let unknown = OAuthError(
            .invalidChallenge, "Unknown challenge for this device key.", logCode: "device_proof_challenge_not_found")
        // The challenge must be one issued for a key of this device (the consumption below checks the user too).
        guard let issued = try writer.deviceChallenge(id: challengeID),
            let key = keys.first(where: { $0.keyID == issued.keyID })
        else { return unknown }
        let challenge: DeviceChallenge
        switch try writer.consumeDeviceChallenge(id: challengeID, keyID: key.keyID, userID: subject.sub, now: now) {
        case .consumed(let consumed): challenge = consumed
        case .alreadyConsumed:
            return OAuthError(.challengeAlreadyUsed, "The challenge was already used.", logCode: "challenge_replayed")
        case .expired:
            return OAuthError(.expiredChallenge, "The challenge has expired.", logCode: "challenge_expired")
        case .notFound:
            return unknown
        }
        let verification = DeviceKeyApproval.verify(
            challenge: challenge, key: key, signature: signature, subject: subject, now: now)
        switch verification {
        case .failure(let error):
            return .deviceKey(error)
        case .success(let approval):
            // The signed action must be this operation's device proof: a proof for another operation, or an
            // ordinary action's signature, proves nothing here.
            guard let expected = try? DeviceProofAction.action(operation),
                approval.action.canonicalBytes == expected.canonicalBytes
            else {
                return OAuthError(
                    .invalidChallenge, "The challenge is not a device proof for this operation.",
                    logCode: "device_proof_wrong_operation", reason: operation.rawValue)
            }
            return nil
        }
    }

    /// Creates the value from its stored properties.
    package init(context: ServerContext) {
        self.context = context
    }
}
