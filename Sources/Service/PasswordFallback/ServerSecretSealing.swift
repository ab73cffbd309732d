import Foundation
import JSON
import Storage

/// At start, with a key-encryption key: seals each server secret stored unencrypted (from before the key was
/// configured) or under a key that only opens, replacing it only if still the bytes read (compare-and-set: nodes
/// starting together seal it once), and records it in the audit log (`server_secret_sealed`).
package enum ServerSecretSealing {
    /// The secret a start seals: the key of the stand-in salts and of the audit log's identity pseudonyms.
    package static let name = PasswordFallback.fakeSaltSecretName
    /// Every server secret a start seals: `name` and the keys of the sealed auth sessions (`AuthSessionKey`: the
    /// current one and a rotation's next and previous).
    package static let names = [name] + AuthSessionKey.secretNames

    /// Whether this start sealed the server secret `name`.
    package static func run(store: any Store, keys: SecretEncryptionKeys, now: Date, name: String = name)
        async throws -> Bool
    {
        guard let stored = try await store.read({ try $0.serverSecret(name: name) }),
            let replacement = try keys.resealedNamedSecret(stored, name: name)
        else { return false }
        return try await store.write { writer -> Bool in
            // Another node starting at the same time may have sealed it first: then it records that.
            guard try writer.replaceServerSecret(name: name, expected: stored, replacement: replacement) else {
                return false
            }
            _ = try writer.appendSecurityEvent(
                PasswordFallbackAuditEvent.make(
                    .serverSecretSealed, outcome: "success", now: now, userID: nil,
                    clientID: nil,
                    detail: [JSONMember(key: "name", value: .string(name))]
                        + keys.resealingDetail(
                            of: stored, isPlain: SecretEncryptionKeys.isUnencryptedNamedSecret(stored))))
            return true
        }
    }
}
