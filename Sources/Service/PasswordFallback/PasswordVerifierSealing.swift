import Crypto
import Foundation
import JSON
import Storage

/// At start, with a key-encryption key: seals every password verifier still stored unencrypted (enrolled before the
/// key was configured, or by a node without it) or under a key that only opens (the previous key-encryption key,
/// while it is rotated), so that after one start with the new key the old one can be retired. A page of verifiers
/// at a time, each replaced only if still the bytes read (compare-and-set): nodes starting together seal each one
/// once, and a verifier its user replaced meanwhile is left as the user stored it. Each one sealed enters the audit
/// log (`password_verifier_sealed`).
package enum PasswordVerifierSealing {
    /// Verifiers read and sealed per write.
    package static let pageSize = 200

    /// What a run did: how many verifiers it sealed, and the users whose verifier opened under none of this node's
    /// keys (left as they are: those users' password logins fail until the right key is configured).
    package struct Outcome: Sendable, Equatable {
        package var sealed = 0
        package var unopenable: [String] = []
    }

    package static func run(store: any Store, keys: SecretEncryptionKeys, now: Date) async throws -> Outcome {
        guard let sealing = keys.sealing else { return Outcome() }
        let width = try PasswordFallback.srp().width
        let sealedPrefix = SecretEncryption.magic + sealing.fingerprint
        var outcome = Outcome()
        var after: String?
        while true {
            // Those already sealed under the sealing key are left out by the store: a start after the first reads
            // next to nothing, however many verifiers there are.
            let page = try await store.read { [after] in
                try $0.passwordVerifiers(afterUserID: after, excludingPrefix: sealedPrefix, limit: pageSize)
            }
            var pairs: [(PasswordVerifier, [UInt8])] = []
            for record in page {
                do {
                    if let sealed = try keys.resealedVerifier(record, width: width) { pairs.append((record, sealed)) }
                } catch {
                    outcome.unopenable.append(record.userID)
                }
            }
            if !pairs.isEmpty {
                outcome.sealed += try await store.write { [pairs] writer in
                    var count = 0
                    for (old, new) in pairs {
                        guard
                            try writer.replacePasswordVerifier(
                                userID: old.userID, expected: old.verifier, replacement: new)
                        else { continue }
                        count += 1
                        _ = try writer.appendSecurityEvent(
                            PasswordFallbackAuditEvent.make(
                                .passwordVerifierSealed, outcome: "success", now: now,
                                userID: old.userID, clientID: nil,
                                detail: keys.resealingDetail(
                                    of: old.verifier,
                                    isPlain: SecretEncryptionKeys.isUnencryptedVerifier(old.verifier, width: width))))
                    }
                    return count
                }
            }
            guard page.count == pageSize, let last = page.last else { return outcome }
            after = last.userID
        }
    }
}
