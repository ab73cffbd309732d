import Configuration
import Foundation
import PKCS11Signer

/// `passkeyd encryption-key wrap`: wraps, in place, each key file of `encryption_at_rest` that still holds its key
/// unwrapped, under the HSM key `encryption_at_rest.pkcs11` names (`PKCS11KeyWrapping`). The key itself does not
/// change (its fingerprint neither), so everything it sealed keeps opening; only the file stops being enough to
/// open it. Run on each node's files, then restart the node with the same configuration.
package enum KeyEncryptionKeyWrapping {
    /// What became of one file.
    package struct Outcome: Sendable, Equatable, CustomStringConvertible {
        package let path: String
        /// The key's fingerprint (`SecretEncryption.fingerprintText`).
        package let fingerprint: String
        /// Whether this run wrapped it (`false`: it was wrapped already).
        package let wrappedNow: Bool

        package var description: String {
            (wrappedNow ? "wrapped " : "already wrapped ") + "\(path) (key-encryption key \(fingerprint))"
        }
    }

    /// Wraps the configuration's key files that need it; checks every wrapped file unwraps.
    package static func run(_ configuration: ServerConfiguration) throws(SecretEncryption.Failure) -> [Outcome] {
        guard let pkcs11 = configuration.encryptionAtRest.pkcs11 else {
            throw SecretEncryption.Failure(
                description: "encryption_at_rest.pkcs11 is not set: it names the HSM key that wraps the key files")
        }
        let named = KeyEncryptionKeyFile.configured(configuration)
        guard !named.isEmpty else {
            throw SecretEncryption.Failure(
                description: "encryption_at_rest.key_file is not set: there is nothing to wrap")
        }
        let pin: String
        do {
            pin = try pkcs11.pin(setting: "encryption_at_rest.pkcs11")
        } catch {
            throw SecretEncryption.Failure(description: error.description)
        }
        var outcomes: [Outcome] = []
        for (path, setting) in named {
            let file = try KeyEncryptionKeyFile.read(path: path, setting: setting)
            /// An HSM step, its failure named with the file.
            func hsm<T>(_ step: () throws(PKCS11Failure) -> T) throws(SecretEncryption.Failure) -> T {
                do {
                    return try step()
                } catch {
                    throw SecretEncryption.Failure(description: "\(setting) \(path): \(error)")
                }
            }
            let key: [UInt8]
            let wrappedNow: Bool
            switch file.contents {
            case .wrapped(let wrapped):
                key = try hsm { () throws(PKCS11Failure) in
                    try PKCS11KeyWrapping.unwrap([wrapped], at: pkcs11.location, pin: pin)[0]
                }
                wrappedNow = false
            case .key(let raw):
                // `wrap` has the HSM give the key back before the only unwrapped copy is replaced.
                let wrapped = try hsm { () throws(PKCS11Failure) in
                    try PKCS11KeyWrapping.wrap(raw, at: pkcs11.location, pin: pin)
                }
                try replace(path, with: KeyEncryptionKeyFile.wrappedText(wrapped))
                key = raw
                wrappedNow = true
            }
            let encryption = try SecretEncryption(file: file, key: key)
            outcomes.append(Outcome(path: path, fingerprint: encryption.fingerprintText, wrappedNow: wrappedNow))
        }
        return outcomes
    }

    /// Replaces the file at `path` with `text` atomically (`SecretFile.replace` through a file beside it), with the
    /// old file's owner, group and mode, so it still passes `KeyEncryptionKeyFile.read`'s rule.
    private static func replace(_ path: String, with text: String) throws(SecretEncryption.Failure) {
        let temporary = path + ".wrapping"
        // One left by a run that stopped half-way holds at most a wrapped key: it is replaced.
        if unlink(temporary) != 0, errno != ENOENT {
            throw SecretEncryption.Failure(
                description: "cannot replace \(path): removing \(temporary): \(String(cString: strerror(errno)))")
        }
        do {
            // A group-readable file owned by root must stay readable by the server's group.
            try SecretFile.replace(path, contents: Array(text.utf8), through: temporary, keepingAttributes: true)
        } catch {
            throw SecretEncryption.Failure(description: "cannot replace \(path): \(error)")
        }
    }
}
