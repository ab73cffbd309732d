import Configuration
import Crypto
import Foundation
import JSON
import PKCS11Signer
import Storage

/// The key-encryption keys of one node: the one that seals every secret stored from now on
/// (`encryption_at_rest.key_file`), and those that only open secrets sealed before
/// (`encryption_at_rest.decryption_key_files`, while the key-encryption key is rotated: docs/api.md).
package struct SecretEncryptionKeys: Sendable {
    /// Seals new secrets; `nil`: they are stored unencrypted.
    package let sealing: SecretEncryption?
    /// Open secrets sealed under them; never seal.
    package let openingOnly: [SecretEncryption]

    /// No key-encryption key: secrets are stored unencrypted.
    package static let none = SecretEncryptionKeys(sealing: nil, openingOnly: [])

    /// The keys `configuration` names (relative paths are taken from the data directory, as `audit.key_file` is),
    /// unwrapped through the HSM in one session when `encryption_at_rest.pkcs11` is set, or why one of their files
    /// cannot serve.
    package static func configured(_ configuration: ServerConfiguration)
        -> Result<SecretEncryptionKeys, SecretEncryption.Failure>
    {
        Result { () throws(SecretEncryption.Failure) in
            let files = try KeyEncryptionKeyFile.configured(configuration).map {
                (file) throws(SecretEncryption.Failure) in
                try KeyEncryptionKeyFile.read(path: file.path, setting: file.setting)
            }
            let keys = try Self.keys(in: files, pkcs11: configuration.encryptionAtRest.pkcs11)
            var encryptions: [SecretEncryption] = []
            for (file, key) in zip(files, keys) { encryptions.append(try SecretEncryption(file: file, key: key)) }
            let sealing = configuration.encryptionAtRest.keyFile == nil ? nil : encryptions.first
            return SecretEncryptionKeys(
                sealing: sealing, openingOnly: Array(encryptions.dropFirst(sealing == nil ? 0 : 1)))
        }
    }

    /// The keys in `files`: as they are without `pkcs11`, unwrapped by its key with it. A file of the other form is
    /// refused, saying what to do: a key left unwrapped beside an HSM is the very thing `pkcs11` is set to prevent.
    package static func keys(in files: [KeyEncryptionKeyFile], pkcs11: PKCS11Settings?)
        throws(SecretEncryption.Failure) -> [[UInt8]]
    {
        guard let pkcs11 else {
            return try files.map { (file) throws(SecretEncryption.Failure) in
                guard case .key(let key) = file.contents else {
                    throw SecretEncryption.Failure(
                        description: "\(file.setting) \(file.path) holds a key wrapped by an HSM key: set "
                            + "encryption_at_rest.pkcs11 to that key")
                }
                return key
            }
        }
        let wrapped = try files.map { (file) throws(SecretEncryption.Failure) in
            guard case .wrapped(let wrapped) = file.contents else {
                throw SecretEncryption.Failure(
                    description: "\(file.setting) \(file.path) holds an unwrapped key while encryption_at_rest.pkcs11 "
                        + "is set: wrap it with `passkeyd encryption-key wrap` (the HSM's key then wraps it in place)")
            }
            return wrapped
        }
        guard !wrapped.isEmpty else { return [] }
        do {
            let pin = try pkcs11.pin(setting: "encryption_at_rest.pkcs11")
            return try PKCS11KeyWrapping.unwrap(wrapped, at: pkcs11.location, pin: pin)
        } catch {
            throw SecretEncryption.Failure(
                description: "cannot unwrap the key-encryption key (\(files.map(\.path).joined(separator: ", "))) "
                    + "with encryption_at_rest.pkcs11: \(error)")
        }
    }

    /// `secret` as it is stored: sealed under the sealing key when there is one.
    package func stored(_ secret: [UInt8], context: [UInt8]) throws -> [UInt8] {
        try sealing.map { try $0.seal(secret, context: context) } ?? secret
    }

    /// Whether stored bytes should be sealed (again) under the sealing key: unencrypted (`isPlain`; by default,
    /// when they do not start as an envelope does), or sealed under a key that only opens.
    package func needsSealing(_ stored: [UInt8], isPlain: Bool? = nil) -> Bool {
        guard let sealing else { return false }
        let plain = isPlain ?? !SecretEncryption.isSealed(stored)
        return plain || SecretEncryption.sealer(of: stored) != sealing.fingerprint
    }

    /// The audit detail of a secret sealed again: the sealing key's fingerprint and the one `stored` was sealed
    /// under before, or `unencrypted`.
    package func resealingDetail(of stored: [UInt8], isPlain: Bool) -> [JSONMember] {
        let before = isPlain ? nil : SecretEncryption.sealer(of: stored).map { Hex.encode($0) }
        return [
            JSONMember(key: "key_encryption_key", value: .string(sealing?.fingerprintText ?? "none")),
            JSONMember(key: "previously", value: .string(before ?? "unencrypted")),
        ]
    }

    /// The secret in `stored`, for a kind of secret whose unencrypted form has a length no envelope of it has
    /// (`isPlain`): taken as it is when plain; otherwise it must be an envelope, opened as `open(_:context:what:)`
    /// does. (Raw bytes may start with the envelope's `pkd1` by chance; a length cannot lie.)
    package func open(_ stored: [UInt8], isPlain: Bool, context: [UInt8], what: String) throws(SecretEncryption.Failure)
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
    package func open(_ stored: [UInt8], context: [UInt8], what: String) throws(SecretEncryption.Failure) -> [UInt8] {
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
