import Storage

/// The server secrets at rest (`server_secrets`: the key of unknown identities' stand-in salts and of the audit
/// log's identity pseudonyms). Read from a copy of the database, that key lets anyone test candidate identities
/// (email addresses, user names) against the pseudonyms a deleted account left in the append-only log; with a
/// key-encryption key it is stored sealed, bound to its name.
extension SecretEncryptionKeys {
    /// The length of a server secret stored unencrypted; an envelope of one is longer.
    package static let namedSecretLength = 32

    /// The server secret `name` as it is stored.
    package func storedNamedSecret(_ value: [UInt8], name: String) throws -> [UInt8] {
        try stored(value, context: Self.namedSecretContext(name))
    }

    /// Whether stored server-secret bytes are unencrypted: exactly `namedSecretLength`, which no envelope is.
    package static func isUnencryptedNamedSecret(_ stored: [UInt8]) -> Bool {
        stored.count == namedSecretLength
    }

    /// The server secret `name` from its stored bytes, opened if sealed.
    package func namedSecret(_ stored: [UInt8], name: String) throws(SecretEncryption.Failure) -> [UInt8] {
        try open(
            stored, isPlain: Self.isUnencryptedNamedSecret(stored), context: Self.namedSecretContext(name),
            what: "server secret \(name)")
    }

    /// The stored bytes sealed (again) under the sealing key, or `nil` when they need no sealing (already under
    /// the sealing key, or there is none).
    package func resealedNamedSecret(_ stored: [UInt8], name: String) throws -> [UInt8]? {
        guard needsSealing(stored, isPlain: Self.isUnencryptedNamedSecret(stored)) else { return nil }
        return try storedNamedSecret(try namedSecret(stored, name: name), name: name)
    }

    private static func namedSecretContext(_ name: String) -> [UInt8] {
        Array("server-secret\u{0}".utf8) + Array(name.utf8)
    }
}
