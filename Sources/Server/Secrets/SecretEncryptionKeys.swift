import Crypto
import Foundation
import JSON
import Storage

/// The key-encryption keys of one node: the one that seals every secret stored from now on
/// (`encryption_at_rest.key_file`), and those that only open secrets sealed before
/// (`encryption_at_rest.decryption_key_files`, while the key-encryption key is rotated: docs/api.md).
struct SecretEncryptionKeys: Sendable {
    /// Seals new secrets; `nil`: they are stored unencrypted.
    let sealing: SecretEncryption?
    /// Open secrets sealed under them; never seal.
    let openingOnly: [SecretEncryption]

    /// No key-encryption key: secrets are stored unencrypted.
    static let none = SecretEncryptionKeys(sealing: nil, openingOnly: [])

    /// The keys `configuration` names (relative paths are taken from the data directory, as `audit.key_file` is),
    /// or why one of their files cannot serve.
    static func configured(_ configuration: ServerConfiguration) -> Result<
        SecretEncryptionKeys, SecretEncryption.Failure
    > {
        func path(_ file: String) -> String {
            file.hasPrefix("/") ? file : (configuration.dataDirectory as NSString).appendingPathComponent(file)
        }
        return Result { () throws(SecretEncryption.Failure) in
            let sealing = try configuration.encryptionAtRest.keyFile.map {
                (file) throws(SecretEncryption.Failure) in try SecretEncryption.load(path: path(file))
            }
            var openingOnly: [SecretEncryption] = []
            for file in configuration.encryptionAtRest.decryptionKeyFiles {
                openingOnly.append(
                    try SecretEncryption.load(path: path(file), setting: "encryption_at_rest.decryption_key_files"))
            }
            return SecretEncryptionKeys(sealing: sealing, openingOnly: openingOnly)
        }
    }

    /// `secret` as it is stored: sealed under the sealing key when there is one.
    func stored(_ secret: [UInt8], context: [UInt8]) throws -> [UInt8] {
        try sealing.map { try $0.seal(secret, context: context) } ?? secret
    }

    /// Whether stored bytes should be sealed (again) under the sealing key: unencrypted (`isPlain`; by default,
    /// when they do not start as an envelope does), or sealed under a key that only opens.
    func needsSealing(_ stored: [UInt8], isPlain: Bool? = nil) -> Bool {
        guard let sealing else { return false }
        let plain = isPlain ?? !SecretEncryption.isSealed(stored)
        return plain || SecretEncryption.sealer(of: stored) != sealing.fingerprint
    }

    /// The audit detail of a secret sealed again: the sealing key's fingerprint and the one `stored` was sealed
    /// under before, or `unencrypted`.
    func resealingDetail(of stored: [UInt8], isPlain: Bool) -> [JSONMember] {
        let before = isPlain ? nil : SecretEncryption.sealer(of: stored).map { Hex.encode($0) }
        return [
            JSONMember(key: "key_encryption_key", value: .string(sealing?.fingerprintText ?? "none")),
            JSONMember(key: "previously", value: .string(before ?? "unencrypted")),
        ]
    }

    /// The secret in `stored`, for a kind of secret whose unencrypted form has a length no envelope of it has
    /// (`isPlain`): taken as it is when plain; otherwise it must be an envelope, opened as `open(_:context:what:)`
    /// does. (Raw bytes may start with the envelope's `pkd1` by chance; a length cannot lie.)
    func open(_ stored: [UInt8], isPlain: Bool, context: [UInt8], what: String) throws(SecretEncryption.Failure)
        -> [UInt8]
    {
        if isPlain { return stored }
        guard SecretEncryption.isSealed(stored) else {
            throw SecretEncryption.Failure(
                description: "\(what) is \(stored.count) bytes: neither its unencrypted length nor sealed")
        }
        return try open(stored, context: context, what: what)
    }

    /// The secret in `stored`: opened if sealed, as stored if not.
    /// - Throws: `SecretEncryption.Failure` naming `what` when it is sealed under none of this node's keys (and
    ///   which key that was), or its envelope does not open.
    func open(_ stored: [UInt8], context: [UInt8], what: String) throws(SecretEncryption.Failure) -> [UInt8] {
        guard SecretEncryption.isSealed(stored) else { return stored }
        guard let sealer = SecretEncryption.sealer(of: stored) else {
            throw SecretEncryption.Failure(description: "\(what): its encrypted secret is truncated")
        }
        let all = (sealing.map { [$0] } ?? []) + openingOnly
        if let encryption = all.first(where: { $0.fingerprint == sealer }) {
            return try encryption.open(stored, context: context, what: what)
        }
        let named = Hex.encode(sealer)
        guard let sealing else {
            throw SecretEncryption.Failure(
                description: "\(what) is encrypted at rest (key-encryption key \(named)); set "
                    + "encryption_at_rest.key_file to that key's file")
        }
        let others =
            openingOnly.isEmpty
            ? ""
            : " nor among its encryption_at_rest.decryption_key_files ("
                + openingOnly.map(\.fingerprintText).joined(separator: ", ") + ")"
        throw SecretEncryption.Failure(
            description: "\(what) was encrypted under key-encryption key \(named), not under this node's "
                + "\(sealing.fingerprintText) (encryption_at_rest.key_file)\(others)")
    }
}
