import Foundation
import Storage

/// The key-encryption keys of one node: the one that seals every signing key stored from now on
/// (`tokens.signing_key_encryption_key_file`), and those that only open keys sealed before
/// (`tokens.signing_key_decryption_key_files`, while the key-encryption key is rotated: docs/api.md).
struct SigningKeyEncryptionKeys: Sendable {
    /// Seals new keys; `nil`: keys are stored unencrypted.
    let sealing: SigningKeyEncryption?
    /// Open keys sealed under them; never seal.
    let openingOnly: [SigningKeyEncryption]

    /// No key-encryption key: signing keys are stored as PKCS#8.
    static let none = SigningKeyEncryptionKeys(sealing: nil, openingOnly: [])

    /// The keys `configuration` names (relative paths are taken from the data directory, as `audit.key_file` is),
    /// or why one of their files cannot serve.
    static func configured(_ configuration: ServerConfiguration) -> Result<
        SigningKeyEncryptionKeys, SigningKeyEncryption.Failure
    > {
        func path(_ file: String) -> String {
            file.hasPrefix("/") ? file : (configuration.dataDirectory as NSString).appendingPathComponent(file)
        }
        return Result { () throws(SigningKeyEncryption.Failure) in
            let sealing = try configuration.tokens.signingKeyEncryptionKeyFile.map {
                (file) throws(SigningKeyEncryption.Failure) in try SigningKeyEncryption.load(path: path(file))
            }
            var openingOnly: [SigningKeyEncryption] = []
            for file in configuration.tokens.signingKeyDecryptionKeyFiles {
                openingOnly.append(
                    try SigningKeyEncryption.load(path: path(file), setting: "tokens.signing_key_decryption_key_files"))
            }
            return SigningKeyEncryptionKeys(sealing: sealing, openingOnly: openingOnly)
        }
    }

    /// A new key as it is stored: sealed when there is a sealing key.
    func stored(_ key: SigningKey) throws -> SigningKey {
        try sealing.map { try $0.seal(key) } ?? key
    }

    /// Whether a stored key should be sealed (again) under the sealing key: it is unencrypted, or sealed under a
    /// key that only opens.
    func needsSealing(_ key: SigningKey) -> Bool {
        guard let sealing else { return false }
        return SigningKeyEncryption.sealer(of: key.privateKey) != sealing.fingerprint
    }

    /// `key` with its private half as PKCS#8: opened if sealed, as stored if not.
    /// - Throws: `SigningKeyEncryption.Failure` naming the `kid` when it is sealed under none of this node's keys
    ///   (and which key that was), or its envelope does not open.
    func open(_ key: SigningKey) throws(SigningKeyEncryption.Failure) -> SigningKey {
        guard SigningKeyEncryption.isSealed(key.privateKey) else { return key }
        guard let sealer = SigningKeyEncryption.sealer(of: key.privateKey) else {
            throw SigningKeyEncryption.Failure(
                description: "signing key \(key.kid): its encrypted private key is truncated")
        }
        let all = (sealing.map { [$0] } ?? []) + openingOnly
        if let encryption = all.first(where: { $0.fingerprint == sealer }) { return try encryption.open(key) }
        let named = SigningKeyEncryption.hex(sealer)
        guard let sealing else {
            throw SigningKeyEncryption.Failure(
                description: "signing key \(key.kid) is encrypted at rest (key-encryption key \(named)); set "
                    + "tokens.signing_key_encryption_key_file to that key's file")
        }
        let others =
            openingOnly.isEmpty
            ? ""
            : " nor among its tokens.signing_key_decryption_key_files ("
                + openingOnly.map(\.fingerprintText).joined(separator: ", ") + ")"
        throw SigningKeyEncryption.Failure(
            description: "signing key \(key.kid) was encrypted under key-encryption key \(named), not under this "
                + "node's \(sealing.fingerprintText) (tokens.signing_key_encryption_key_file)\(others)")
    }
}
