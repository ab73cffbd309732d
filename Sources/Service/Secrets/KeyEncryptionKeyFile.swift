import Configuration
import Crypto
import Foundation

/// A file holding a key-encryption key (`encryption_at_rest.key_file`, `decryption_key_files`), read under
/// PostgreSQL's rule for key files: owned by this user and closed to everyone else, or owned by root and at most
/// readable by its group.
///
/// It holds the key itself, 32 bytes (`openssl rand -out FILE 32`), or, with `encryption_at_rest.pkcs11`, the key
/// wrapped by an AES key that never leaves the HSM (`passkeyd encryption-key wrap`): one line,
/// `passkeyd-wrapped-key v1 ` followed by the wrapped bytes (`PKCS11KeyWrapping`) in base64. A wrapped file alone —
/// in a backup, a copied disk image — opens nothing.
package struct KeyEncryptionKeyFile: Sendable, Equatable {
    /// What the file holds.
    package enum Contents: Sendable, Equatable {
        /// The 32-byte key.
        case key([UInt8])
        /// The key, wrapped by the HSM's key.
        case wrapped([UInt8])
    }

    /// Where the file is (relative paths already resolved from the data directory).
    package let path: String
    /// The setting that names it, for messages.
    package let setting: String
    package let contents: Contents

    /// The wrapped form's first bytes.
    package static let wrappedPrefix = "passkeyd-wrapped-key v1 "
    /// Larger files are refused unread (a wrong file: a log, a device).
    package static let maximumByteCount = 1_024

    /// The files `configuration` names, the sealing key's first, paths resolved from the data directory.
    package static func configured(_ configuration: ServerConfiguration) -> [(path: String, setting: String)] {
        func path(_ file: String) -> String {
            file.hasPrefix("/") ? file : (configuration.dataDirectory as NSString).appendingPathComponent(file)
        }
        let atRest = configuration.encryptionAtRest
        return (atRest.keyFile.map { [(path($0), "encryption_at_rest.key_file")] } ?? [])
            + atRest.decryptionKeyFiles.map { (path($0), "encryption_at_rest.decryption_key_files") }
    }

    /// The text of a wrapped key's file.
    package static func wrappedText(_ wrapped: [UInt8]) -> String {
        wrappedPrefix + Data(wrapped).base64EncodedString() + "\n"
    }

    /// Reads the file at `path` (named in errors as `setting`).
    package static func read(path: String, setting: String) throws(SecretEncryption.Failure) -> KeyEncryptionKeyFile {
        func failure(_ text: String) -> SecretEncryption.Failure {
            SecretEncryption.Failure(description: "\(setting) \(path) \(text)")
        }
        var status = stat()
        guard stat(path, &status) == 0 else {
            throw SecretEncryption.Failure(
                description: "cannot read \(setting) \(path): \(String(cString: strerror(errno)))")
        }
        guard status.st_mode & S_IFMT == S_IFREG else { throw failure("is not a regular file") }
        // PostgreSQL's rule for its key files: owned by this user and closed to everyone else (0600 or stricter),
        // or owned by root and at most readable by the group (0640 or stricter; the unit's group model, README).
        let mode = String(status.st_mode & 0o777, radix: 8)
        if status.st_uid == 0 {
            guard status.st_mode & 0o037 == 0 else {
                throw failure(
                    "is owned by root with mode \(mode): at most 0640 (readable by its group, writable by no one "
                        + "else, nothing for others)")
            }
        } else if status.st_uid == geteuid() {
            guard status.st_mode & 0o077 == 0 else {
                throw failure("is accessible to group or others (mode \(mode)); chmod 600 it")
            }
        } else {
            throw failure(
                "must be owned by the user passkeyd runs as (mode 0600 or stricter) or by root (0640 or stricter)")
        }
        let sizeRule = "must hold exactly 32 bytes (openssl rand -out FILE 32) or a wrapped key"
        // The size first: a wrong file is refused without being read.
        guard status.st_size <= maximumByteCount, let data = FileManager.default.contents(atPath: path) else {
            throw failure("\(sizeRule), it holds \(status.st_size) bytes")
        }
        let bytes = Array(data)
        if bytes.count == AES256GCM.keyByteCount {
            return KeyEncryptionKeyFile(path: path, setting: setting, contents: .key(bytes))
        }
        let text = String(decoding: bytes, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        guard text.hasPrefix(wrappedPrefix) else { throw failure("\(sizeRule), it holds \(bytes.count) bytes") }
        guard let wrapped = Data(base64Encoded: String(text.dropFirst(wrappedPrefix.count))), !wrapped.isEmpty else {
            throw failure("holds a wrapped key that is not valid base64")
        }
        return KeyEncryptionKeyFile(path: path, setting: setting, contents: .wrapped(Array(wrapped)))
    }
}
