import Crypto
import Storage

/// A server secret every node of one database shares (`server_secrets`): read, or created by the first node that
/// needs it. One home for the insert-if-absent of the stand-in salts' key (`SRPStandIn`) and the auth sessions'
/// key (`AuthSessionKey`).
package enum NamedServerSecret {
    /// The secret `name`: `stored` opened, or, when none is stored yet, a new random one stored (sealed under the
    /// key-encryption key when one is configured) — of nodes inserting at once, all use the first one stored.
    package static func secret(_ name: String, stored: [UInt8]?, keys: SecretEncryptionKeys, store: any Store)
        async throws -> [UInt8]
    {
        if let stored { return try keys.namedSecret(stored, name: name) }
        let candidate = try keys.storedNamedSecret(
            try SecureRandom.bytes(count: SecretEncryptionKeys.namedSecretLength), name: name)
        let inserted = try await store.write { try $0.insertServerSecret(name: name, value: candidate) }
        return try keys.namedSecret(inserted, name: name)
    }
}
