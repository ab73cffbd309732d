import Crypto
import Foundation
import Storage

/// The token-signing keys' private halves encrypted at rest (`tokens.signing_key_encryption_key_file`): whoever reads
/// the database — a backup, a replica, a DBA — cannot mint tokens without the key-encryption key, which lives in a
/// file beside each node, never in the database.
///
/// A stored private key is either PKCS#8 DER (unencrypted; DER starts with 0x30) or an envelope:
/// `"pkd1"` ‖ the key-encryption key's 8-byte fingerprint ‖ AES-256-GCM(nonce ‖ PKCS#8 ‖ tag), authenticated with
/// the envelope's header, the `kid` and the algorithm as associated data, so a ciphertext moved to another key's row
/// does not open. The fingerprint (a hash of the key-encryption key, not the key) names which key sealed a row, so
/// a node configured with another key says so instead of "does not decrypt".
struct SigningKeyEncryption: Sendable {
    /// Why a signing key could not be sealed, opened or the key-encryption key loaded.
    struct Failure: Error, CustomStringConvertible, Equatable {
        let description: String
    }

    /// The envelope's first bytes ("pkd1"): never a DER SEQUENCE's 0x30.
    static let magic: [UInt8] = Array("pkd1".utf8)
    static let fingerprintByteCount = 8

    /// The key-encryption key's fingerprint: the first 8 bytes of SHA-256("passkeyd signing-key KEK" ‖ key).
    let fingerprint: [UInt8]
    private let cipher: AES256GCM

    /// Encryption under `key` (32 bytes).
    init(key: [UInt8]) throws(CryptoError) {
        cipher = try AES256GCM(key: key)
        fingerprint = Array(
            Digest.sha256(Array("passkeyd signing-key KEK".utf8) + key).prefix(Self.fingerprintByteCount))
    }

    /// The fingerprint as lower-case hex, for logs and messages.
    var fingerprintText: String { Self.hex(fingerprint) }

    /// Loads a key-encryption key from `path` (named in errors as `setting`): exactly 32 bytes (e.g. `openssl rand
    /// -out FILE 32`), in a regular file owned by this user and closed to everyone else, or owned by root and at
    /// most readable by its group (PostgreSQL's rule for its key files).
    static func load(path: String, setting: String = "tokens.signing_key_encryption_key_file") throws(Failure)
        -> SigningKeyEncryption
    {
        var status = stat()
        guard stat(path, &status) == 0 else {
            throw Failure(description: "cannot read \(setting) \(path): \(errnoText())")
        }
        guard status.st_mode & S_IFMT == S_IFREG else {
            throw Failure(description: "\(setting) \(path) is not a regular file")
        }
        // PostgreSQL's rule for its key files: owned by this user and closed to everyone else (0600 or stricter),
        // or owned by root and at most readable by the group (0640 or stricter; the unit's group model, README).
        let mode = String(status.st_mode & 0o777, radix: 8)
        if status.st_uid == 0 {
            guard status.st_mode & 0o037 == 0 else {
                throw Failure(
                    description: "\(setting) \(path) is owned by root with mode \(mode): at most 0640 (readable by "
                        + "its group, writable by no one else, nothing for others)")
            }
        } else if status.st_uid == geteuid() {
            guard status.st_mode & 0o077 == 0 else {
                throw Failure(
                    description: "\(setting) \(path) is accessible to group or others (mode \(mode)); chmod 600 it")
            }
        } else {
            throw Failure(
                description: "\(setting) \(path) must be owned by the user passkeyd runs as (mode 0600 or "
                    + "stricter) or by root (0640 or stricter)")
        }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw Failure(description: "cannot read \(setting) \(path)")
        }
        guard data.count == AES256GCM.keyByteCount else {
            throw Failure(
                description: "\(setting) \(path) must hold exactly 32 bytes (openssl rand -out FILE 32), it holds "
                    + "\(data.count)")
        }
        do {
            return try SigningKeyEncryption(key: Array(data))
        } catch {
            throw Failure(description: "\(setting) \(path): \(error)")
        }
    }

    /// Whether a stored private key is an envelope (rather than unencrypted PKCS#8).
    static func isSealed(_ privateKey: [UInt8]) -> Bool {
        privateKey.starts(with: magic)
    }

    /// The fingerprint of the key-encryption key that sealed a stored private key; `nil` when it is not sealed.
    static func sealer(of privateKey: [UInt8]) -> [UInt8]? {
        guard isSealed(privateKey), privateKey.count >= magic.count + fingerprintByteCount else { return nil }
        return Array(privateKey.dropFirst(magic.count).prefix(fingerprintByteCount))
    }

    /// `key` with its private half sealed under this key-encryption key.
    func seal(_ key: SigningKey) throws -> SigningKey {
        let header = Self.magic + fingerprint
        var sealed = key
        sealed.privateKey =
            header + (try cipher.seal(key.privateKey, associatedData: Self.associatedData(header: header, key)))
        return sealed
    }

    /// `key`, sealed under this key-encryption key (`sealer(of:)` is its fingerprint), with its private half as
    /// PKCS#8.
    /// - Throws: `Failure` naming the `kid` when the envelope is truncated or does not authenticate (altered, or
    ///   moved from another key's row).
    func open(_ key: SigningKey) throws(Failure) -> SigningKey {
        let headerCount = Self.magic.count + Self.fingerprintByteCount
        guard key.privateKey.count > headerCount + AES256GCM.nonceByteCount + AES256GCM.tagByteCount else {
            throw Failure(description: "signing key \(key.kid): its encrypted private key is truncated")
        }
        let header = Array(key.privateKey.prefix(headerCount))
        var opened = key
        do {
            opened.privateKey = try cipher.open(
                Array(key.privateKey.dropFirst(headerCount)), associatedData: Self.associatedData(header: header, key))
        } catch {
            throw Failure(
                description: "signing key \(key.kid): its encrypted private key does not authenticate (altered, or "
                    + "moved from another key's row)")
        }
        return opened
    }

    /// What the envelope authenticates besides the private key: its header, the `kid` and the algorithm.
    private static func associatedData(header: [UInt8], _ key: SigningKey) -> [UInt8] {
        header + Array(key.kid.utf8) + [0] + Array(key.algorithm.utf8)
    }

    /// `bytes` as lower-case hex, for logs and messages.
    static func hex(_ bytes: [UInt8]) -> String {
        bytes.map { String($0, radix: 16).count == 1 ? "0" + String($0, radix: 16) : String($0, radix: 16) }.joined()
    }

    private static func errnoText() -> String {
        String(cString: strerror(errno))
    }
}
