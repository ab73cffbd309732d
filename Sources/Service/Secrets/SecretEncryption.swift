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
package struct SecretEncryption: Sendable {
    /// Why a secret could not be sealed or opened, or the key-encryption key loaded.
    package struct Failure: Error, CustomStringConvertible, Equatable {
        package let description: String
    }

    /// The envelope's first bytes ("pkd1"): never a DER SEQUENCE's 0x30.
    package static let magic: [UInt8] = Array("pkd1".utf8)
    package static let fingerprintByteCount = 8

    /// The key-encryption key's fingerprint: the first 8 bytes of SHA-256("passkeyd at-rest KEK" ‖ key).
    package let fingerprint: [UInt8]
    private let cipher: AES256GCM

    /// Encryption under `key` (32 bytes).
    package init(key: [UInt8]) throws(CryptoError) {
        cipher = try AES256GCM(key: key)
        fingerprint = Array(
            Digest.sha256(Array("passkeyd at-rest KEK".utf8) + key).prefix(Self.fingerprintByteCount))
    }

    /// The fingerprint as lower-case hex, for logs and messages.
    package var fingerprintText: String { Hex.encode(fingerprint) }

    /// The key-encryption key in `file` (`KeyEncryptionKeyFile`), unwrapped already if it was wrapped.
    package init(file: KeyEncryptionKeyFile, key: [UInt8]) throws(Failure) {
        guard key.count == AES256GCM.keyByteCount else {
            throw Failure(description: "\(file.setting) \(file.path) holds a key of \(key.count) bytes, not 32")
        }
        do {
            try self.init(key: key)
        } catch {
            throw Failure(description: "\(file.setting) \(file.path): \(error)")
        }
    }

    /// Whether stored bytes are an envelope.
    package static func isSealed(_ stored: [UInt8]) -> Bool {
        stored.starts(with: magic)
    }

    /// The fingerprint of the key-encryption key that sealed `stored`; `nil` when it is not sealed.
    package static func sealer(of stored: [UInt8]) -> [UInt8]? {
        guard isSealed(stored), stored.count >= magic.count + fingerprintByteCount else { return nil }
        return Array(stored.dropFirst(magic.count).prefix(fingerprintByteCount))
    }

    /// `secret` sealed under this key-encryption key, bound to `context`.
    package func seal(_ secret: [UInt8], context: [UInt8]) throws -> [UInt8] {
        let header = Self.magic + fingerprint
        return header + (try cipher.seal(secret, associatedData: header + context))
    }

    /// The secret in `sealed` (sealed under this key-encryption key: `sealer(of:)` is its fingerprint), if it was
    /// sealed with `context`.
    /// - Throws: `Failure` naming `what` when the envelope is truncated or does not authenticate (altered, or moved
    ///   from another row).
    package func open(_ sealed: [UInt8], context: [UInt8], what: String) throws(Failure) -> [UInt8] {
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
}
