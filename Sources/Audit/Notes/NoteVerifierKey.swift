import Crypto
import Foundation

/// A C2SP signed-note verifier key for Ed25519 (https://c2sp.org/signed-note): the key name, the 4-byte key id and
/// the public key, written `<name>+<hex key id>+<base64 of 0x01 || public key>`.
public struct NoteVerifierKey: Sendable, Equatable, CustomStringConvertible {
    /// signed-note "Signature types": 0x01 is Ed25519.
    static let ed25519Type: UInt8 = 0x01

    /// The key name (also the checkpoint's origin here).
    public let name: String
    /// The Ed25519 public key (32 bytes).
    public let publicKey: Ed25519PublicKey
    /// signed-note "Key IDs": the first four bytes of SHA-256(name || 0x0A || type || public key).
    public let keyID: [UInt8]

    /// The key `publicKey` named `name`.
    /// - Throws: `.malformed` when the name is not a valid key name (signed-note: non-empty, no Unicode spaces,
    ///   no plus sign).
    public init(name: String, publicKey: Ed25519PublicKey) throws(AuditError) {
        guard Self.isValidName(name) else {
            throw AuditError(.malformed, "key name \"\(name)\" is empty or holds a space or a plus sign")
        }
        self.name = name
        self.publicKey = publicKey
        var input = Array(name.utf8)
        input.append(0x0A)
        input.append(Self.ed25519Type)
        input.append(contentsOf: publicKey.rawRepresentation)
        keyID = Array(Digest.sha256(input).prefix(4))
    }

    /// Parses the text form.
    /// - Throws: `.malformed` for anything but `<name>+<8 hex digits>+<base64 of 0x01 || 32 bytes>` whose key id
    ///   matches the name and key.
    public init(parsing text: String) throws(AuditError) {
        // The name holds no "+", base64 may: split at the first two only.
        let parts = text.trimmingCharacters(in: .whitespacesAndNewlines).split(
            separator: "+", maxSplits: 2, omittingEmptySubsequences: false)
        guard parts.count == 3, parts[1].count == 8, let id = UInt32(parts[1], radix: 16),
            let data = Data(base64Encoded: String(parts[2])), data.count == 33, data.first == Self.ed25519Type
        else {
            throw AuditError(.malformed, "a verifier key is <name>+<hex key id>+<base64 Ed25519 key>")
        }
        let key: Ed25519PublicKey
        do {
            key = try Ed25519PublicKey(rawRepresentation: Array(data.dropFirst()))
        } catch {
            throw AuditError(.malformed, "the verifier key's public key: \(error)")
        }
        try self.init(name: String(parts[0]), publicKey: key)
        guard keyID == Self.bigEndian(id) else {
            throw AuditError(.malformed, "the verifier key's id does not match its name and key")
        }
    }

    /// `<name>+<hex key id>+<base64 of 0x01 || public key>`.
    public var description: String {
        return "\(name)+\(keyIDText)+\(Data([Self.ed25519Type] + publicKey.rawRepresentation).base64EncodedString())"
    }

    static func isValidName(_ name: String) -> Bool {
        !name.isEmpty && !name.contains("+") && !name.unicodeScalars.contains { $0.properties.isWhitespace }
    }

    static func bigEndian(_ value: UInt32) -> [UInt8] {
        [UInt8(value >> 24), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)]
    }
}
