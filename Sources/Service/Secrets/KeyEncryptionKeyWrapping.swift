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

    /// Replaces the file at `path` with `text` atomically (a file beside it, renamed over it, flushed first), with
    /// the old file's owner, group and mode, so it still passes `KeyEncryptionKeyFile.read`'s rule.
    private static func replace(_ path: String, with text: String) throws(SecretEncryption.Failure) {
        func failure(_ what: String) -> SecretEncryption.Failure {
            SecretEncryption.Failure(
                description: "cannot replace \(path): \(what): \(String(cString: strerror(errno)))")
        }
        var status = stat()
        guard stat(path, &status) == 0 else { throw failure("stat") }
        let temporary = path + ".wrapping"
        // One left by a run that stopped half-way holds at most a wrapped key: it is replaced.
        if unlink(temporary) != 0, errno != ENOENT { throw failure("removing \(temporary)") }
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, status.st_mode & 0o777)
        guard descriptor >= 0 else { throw failure("creating \(temporary)") }
        var written = true
        let bytes = Array(text.utf8)
        bytes.withUnsafeBytes { buffer in
            written = write(descriptor, buffer.baseAddress, buffer.count) == buffer.count
        }
        // The old file's owner, group and exact mode (open's mode is cut by the umask); a group-readable file owned
        // by root must stay readable by the server's group.
        _ = fchown(descriptor, status.st_uid, status.st_gid)
        _ = fchmod(descriptor, status.st_mode & 0o777)
        var created = stat()
        let owned =
            fstat(descriptor, &created) == 0 && created.st_uid == status.st_uid && created.st_gid == status.st_gid
            && created.st_mode & 0o777 == status.st_mode & 0o777
        let flushed = fsync(descriptor) == 0
        close(descriptor)
        guard written, owned, flushed, rename(temporary, path) == 0 else {
            let error = failure(
                written ? (owned ? "flushing or renaming" : "keeping its owner, group and mode") : "writing")
            unlink(temporary)
            throw error
        }
        // The rename itself is durable once the directory is flushed.
        let directory = open(
            (path as NSString).deletingLastPathComponent.isEmpty ? "." : (path as NSString).deletingLastPathComponent,
            O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if directory >= 0 {
            fsync(directory)
            close(directory)
        }
    }
}
