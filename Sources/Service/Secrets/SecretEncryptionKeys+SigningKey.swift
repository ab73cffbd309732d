import Storage

/// The token-signing keys at rest: each key's private half sealed with its `kid` and algorithm as the context.
extension SecretEncryptionKeys {
    /// A new signing key as it is stored.
    package func stored(_ key: SigningKey) throws -> SigningKey {
        var stored = key
        stored.privateKey = try self.stored(key.privateKey, context: Self.context(key))
        return stored
    }

    /// A stored signing key with its private half as PKCS#8.
    package func open(_ key: SigningKey) throws(SecretEncryption.Failure) -> SigningKey {
        var opened = key
        opened.privateKey = try open(key.privateKey, context: Self.context(key), what: "signing key \(key.kid)")
        return opened
    }

    /// `key` sealed again under the sealing key (opened first if sealed under another), or `nil` when it needs no
    /// sealing (already under the sealing key, or there is none).
    package func resealed(_ key: SigningKey) throws -> SigningKey? {
        guard let sealing, needsSealing(key.privateKey) else { return nil }
        var sealed = key
        sealed.privateKey = try sealing.seal(try open(key).privateKey, context: Self.context(key))
        return sealed
    }

    /// What a signing key's envelope is bound to: its `kid` and algorithm.
    private static func context(_ key: SigningKey) -> [UInt8] {
        Array("signing-key\u{0}".utf8) + Array(key.kid.utf8) + [0] + Array(key.algorithm.utf8)
    }
}
