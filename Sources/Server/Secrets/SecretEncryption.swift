import Crypto
import Foundation
import Storage

/// One key-encryption key of passkeyd's secrets at rest (`encryption_at_rest.key_file`): the token-signing keys'
/// private halves and the SRP logins' server secrets. Whoever reads the database — a backup, a replica, a DBA —
/// then cannot mint tokens, nor finish another user's SRP login, without the key-encryption key, which lives in a
/// file beside each node, never in the database.
///
/// A sealed secret is an envelope: `"pkd1"` ‖ the key-encryption key's 8-byte fingerprint ‖ AES-256-GCM(nonce ‖
/// secret ‖ tag), authenticated with the envelope's header and a context naming what the secret belongs to (a
/// signing key's `kid` and algorithm, an SRP session's id), so a ciphertext moved to another row does not open. The
/// fingerprint (a hash of the key-encryption key, not the key) names which key sealed it, so a node configured with
/// another key says so instead of "does not decrypt". An unencrypted secret never starts with "pkd1" (PKCS#8 DER
/// starts with 0x30; an SRP secret stored unencrypted is told apart by its length).
struct SecretEncryption: Sendable {
    /// Why a secret could not be sealed or opened, or the key-encryption key loaded.
    struct Failure: Error, CustomStringConvertible, Equatable {
        let description: String
    }

    /// The envelope's first bytes ("pkd1"): never a DER SEQUENCE's 0x30.
    static let magic: [UInt8] = Array("pkd1".utf8)
    static let fingerprintByteCount = 8

    /// The key-encryption key's fingerprint: the first 8 bytes of SHA-256("passkeyd at-rest KEK" ‖ key).
    let fingerprint: [UInt8]
    private let cipher: AES256GCM

    /// Encryption under `key` (32 bytes).
    init(key: [UInt8]) throws(CryptoError) {
        cipher = try AES256GCM(key: key)
        fingerprint = Array(
            Digest.sha256(Array("passkeyd at-rest KEK".utf8) + key).prefix(Self.fingerprintByteCount))
    }

    /// The fingerprint as lower-case hex, for logs and messages.
    var fingerprintText: String { Hex.encode(fingerprint) }

    /// Loads a key-encryption key from `path` (named in errors as `setting`): exactly 32 bytes (e.g. `openssl rand
    /// -out FILE 32`), in a regular file owned by this user and closed to everyone else, or owned by root and at
    /// most readable by its group (PostgreSQL's rule for its key files).
    static func load(path: String, setting: String = "encryption_at_rest.key_file") throws(Failure)
        -> SecretEncryption
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
        // The size first: a wrong file (a log, a device) is refused without being read.
        guard status.st_size == AES256GCM.keyByteCount, let data = FileManager.default.contents(atPath: path),
            data.count == AES256GCM.keyByteCount
        else {
            throw Failure(
                description: "\(setting) \(path) must hold exactly 32 bytes (openssl rand -out FILE 32), it holds "
                    + "\(status.st_size)")
        }
        do {
            return try SecretEncryption(key: Array(data))
        } catch {
            throw Failure(description: "\(setting) \(path): \(error)")
        }
    }

    /// Whether stored bytes are an envelope.
    static func isSealed(_ stored: [UInt8]) -> Bool {
        stored.starts(with: magic)
    }

    /// The fingerprint of the key-encryption key that sealed `stored`; `nil` when it is not sealed.
    static func sealer(of stored: [UInt8]) -> [UInt8]? {
        guard isSealed(stored), stored.count >= magic.count + fingerprintByteCount else { return nil }
        return Array(stored.dropFirst(magic.count).prefix(fingerprintByteCount))
    }

    /// `secret` sealed under this key-encryption key, bound to `context`.
    func seal(_ secret: [UInt8], context: [UInt8]) throws -> [UInt8] {
        let header = Self.magic + fingerprint
        return header + (try cipher.seal(secret, associatedData: header + context))
    }

    /// The secret in `sealed` (sealed under this key-encryption key: `sealer(of:)` is its fingerprint), if it was
    /// sealed with `context`.
    /// - Throws: `Failure` naming `what` when the envelope is truncated or does not authenticate (altered, or moved
    ///   from another row).
    func open(_ sealed: [UInt8], context: [UInt8], what: String) throws(Failure) -> [UInt8] {
        let headerCount = Self.magic.count + Self.fingerprintByteCount
        guard sealed.count >= headerCount + AES256GCM.nonceByteCount + AES256GCM.tagByteCount else {
            throw Failure(description: "\(what): its encrypted secret is truncated")
        }
        let header = Array(sealed.prefix(headerCount))
        do {
            return try cipher.open(Array(sealed.dropFirst(headerCount)), associatedData: header + context)
        } catch {
            throw Failure(
                description: "\(what): its encrypted secret does not authenticate (altered, or moved from another row)")
        }
    }

    private static func errnoText() -> String {
        String(cString: strerror(errno))
    }
}
