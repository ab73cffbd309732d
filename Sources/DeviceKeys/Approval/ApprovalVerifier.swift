import Crypto
import Foundation

/// Verifies a device's signature over a challenge document against the stored challenge and key.
public enum ApprovalVerifier {
    /// Checks, in order: the document is a canonical version-1 challenge document; it names the expected
    /// subject, key, challenge and action; it has not expired; the signature verifies over the exact bytes.
    ///
    /// Single use, the key's status (active / revoked / locked) and the failure counter are the caller's:
    /// they need the store.
    /// - Parameters:
    ///   - signature: ECDSA P-256 / SHA-256 signature, X9.62 DER, as the app sent it.
    ///   - documentBytes: the challenge document bytes stored when the challenge was issued.
    ///   - key: the stored device key for `expectations.keyID`.
    /// - Throws: `.invalidChallengeDocument`, `.challengeMismatch`, `.challengeExpired`, `.invalidSignature`.
    public static func verify(
        signature: [UInt8], documentBytes: [UInt8], key: DevicePublicKey, expectations: ApprovalExpectations
    ) throws(DeviceKeyError) -> VerifiedApproval {
        let document = try ChallengeDocument(bytes: documentBytes)
        guard document.challengeID == expectations.challengeID else {
            throw DeviceKeyError(.challengeMismatch, "document is for challenge \(document.challengeID)")
        }
        guard document.keyID == expectations.keyID else {
            throw DeviceKeyError(.challengeMismatch, "document is for key \(document.keyID)")
        }
        guard document.subject == expectations.subject else {
            throw DeviceKeyError(.challengeMismatch, "document is for another subject")
        }
        guard ConstantTime.equals(document.actionSHA256, Digest.sha256(expectations.action.canonicalBytes)) else {
            throw DeviceKeyError(.challengeMismatch, "action_sha256 does not match the stored action")
        }
        // The challenge is valid while now < exp (exp itself is already too late).
        guard expectations.now < Date(timeIntervalSince1970: TimeInterval(document.expiresAt)) else {
            throw DeviceKeyError(.challengeExpired, "challenge expired at \(document.expiresAt)")
        }
        // Verify over the stored bytes themselves, never over a re-serialisation (they are equal: see init(bytes:)).
        guard key.isValidSignature(signature, for: documentBytes) else {
            throw DeviceKeyError(.invalidSignature, "device signature does not verify")
        }
        return VerifiedApproval(document: document, action: expectations.action, rawSignature: signature)
    }
}
