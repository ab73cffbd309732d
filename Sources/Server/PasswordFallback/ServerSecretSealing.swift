import Crypto
import Foundation
import HTTP
import Storage

/// At start, with a key-encryption key: seals the server secret stored unencrypted (from before the key was
/// configured) or under a key that only opens, replacing it only if still the bytes read (compare-and-set: nodes
/// starting together seal it once), and records it in the audit log (`server_secret_sealed`).
enum ServerSecretSealing {
    /// The secrets a start seals: the key of the stand-in salts and of the audit log's identity pseudonyms.
    static let names = [PasswordFallback.fakeSaltSecretName]

    /// The names of the secrets this start sealed.
    static func run(store: any Store, keys: SecretEncryptionKeys, now: Date) async throws -> [String] {
        guard let sealing = keys.sealing else { return [] }
        var sealed: [String] = []
        for name in names {
            guard let stored = try await store.read({ try $0.serverSecret(name: name) }),
                let replacement = try keys.resealedNamedSecret(stored, name: name)
            else { continue }
            let replaced = try await store.write { writer -> Bool in
                guard try writer.replaceServerSecret(name: name, expected: stored, replacement: replacement) else {
                    return false
                }
                let sealer =
                    stored.count == SecretEncryptionKeys.namedSecretLength ? nil : SecretEncryption.sealer(of: stored)
                _ = try writer.appendSecurityEvent(
                    PasswordFallbackAuditEvent.make(
                        PasswordFallbackAuditEvent.serverSecretSealed, outcome: "success", now: now, userID: nil,
                        clientID: nil,
                        detail: [
                            JSONMember(key: "name", value: .string(name)),
                            JSONMember(key: "key_encryption_key", value: .string(sealing.fingerprintText)),
                            JSONMember(
                                key: "previously", value: .string(sealer.map { Hex.encode($0) } ?? "unencrypted")),
                        ]))
                return true
            }
            if replaced { sealed.append(name) }
        }
        return sealed
    }
}
