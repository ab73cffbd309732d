import Crypto
import Storage

/// What `/srp/challenge` answers for an identity with no verifier (`SRPChallenge`): the same shape and the same work
/// as for an enrolled one. A deterministic stand-in salt — HMAC-SHA-256 of realm and identity under a server secret
/// kept in the store (`PasswordFallback.fakeSaltSecretName`), so every node gives the same one — and a random
/// stand-in verifier below N, from which B is computed as for a real one.
package enum SRPStandIn {
    /// The secret keying the stand-in salts (and the audit log's identity references, `SRPAttemptLog`): `stored`
    /// opened, or, when none is stored yet, a new one sealed and stored — of nodes inserting at once, all use the
    /// first one stored.
    package static func secret(stored: [UInt8]?, keys: SecretEncryptionKeys, store: any Store) async throws
        -> [UInt8]
    {
        try await NamedServerSecret.secret(
            PasswordFallback.fakeSaltSecretName, stored: stored, keys: keys, store: store)
    }

    /// The stand-in salt of `identity` in `realm`: `PasswordFallback.saltLength` bytes, the length of an enrolled
    /// salt.
    package static func salt(secret: [UInt8], realm: String, identity: String) throws -> [UInt8] {
        let digest = try HMAC.sha256(key: secret, message: Array("srp-salt\u{0}\(realm)\u{0}\(identity)".utf8))
        return Array(digest.prefix(PasswordFallback.saltLength))
    }

    /// A random stand-in verifier for `srp`'s group, below N (N's top byte is 0xFF).
    package static func verifier(srp: SRP6a) throws -> [UInt8] {
        try SecureRandom.bytes(count: srp.width - 1)
    }
}
