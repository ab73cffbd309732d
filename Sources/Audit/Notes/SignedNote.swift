import Foundation

/// A C2SP signed note (https://c2sp.org/signed-note): a UTF-8 text ending in a newline, a blank line, then one
/// signature line per signer, `— <key name> <base64 of key id || signature>`.
public struct SignedNote: Sendable, Equatable {
    /// One signature line.
    public struct Signature: Sendable, Equatable {
        public var name: String
        /// The 4-byte key id.
        public var keyID: [UInt8]
        public var signature: [UInt8]
    }

    /// The signed text, ending with a newline.
    public let text: String
    public let signatures: [Signature]

    /// The most a note may weigh here (checkpoints are a few hundred bytes).
    static let maxBytes = 16_384

    /// Signs `text` with `signer`.
    /// - Throws: `.malformed` unless `text` ends with a newline and has no blank line; `.signerFailure`.
    public static func sign(_ text: String, with signer: any NoteSigner) throws(AuditError) -> SignedNote {
        guard text.hasSuffix("\n"), !text.contains("\n\n"), !text.hasPrefix("\n") else {
            throw AuditError(.malformed, "a note's text ends with a newline and holds no blank line")
        }
        let key = signer.verifierKey
        let signature = try signer.sign(Array(text.utf8))
        return SignedNote(text: text, signatures: [Signature(name: key.name, keyID: key.keyID, signature: signature)])
    }

    init(text: String, signatures: [Signature]) {
        self.text = text
        self.signatures = signatures
    }

    /// Parses a note.
    /// - Throws: `.malformed` when the note is not text, blank line and signature lines.
    public init(parsing note: String) throws(AuditError) {
        guard note.utf8.count <= Self.maxBytes, note.hasSuffix("\n") else {
            throw AuditError(.malformed, "a signed note ends with a newline and stays under \(Self.maxBytes) bytes")
        }
        guard let split = note.range(of: "\n\n", options: .backwards) else {
            throw AuditError(.malformed, "a signed note has a blank line before its signatures")
        }
        let text = String(note[..<split.lowerBound]) + "\n"
        guard !text.contains("\n\n") else {
            throw AuditError(.malformed, "the signed text holds a blank line")
        }
        var signatures: [Signature] = []
        for line in note[split.upperBound...].split(separator: "\n", omittingEmptySubsequences: false).dropLast() {
            let fields = line.split(separator: " ", omittingEmptySubsequences: false)
            guard fields.count == 3, fields[0] == "\u{2014}", NoteVerifierKey.isValidName(String(fields[1])),
                let data = Data(base64Encoded: String(fields[2])), data.count > 4
            else { throw AuditError(.malformed, "a signature line is \"— <name> <base64>\"") }
            signatures.append(
                Signature(name: String(fields[1]), keyID: Array(data.prefix(4)), signature: Array(data.dropFirst(4))))
        }
        guard !signatures.isEmpty else { throw AuditError(.malformed, "a signed note has no signature") }
        self.text = text
        self.signatures = signatures
    }

    /// The note as text.
    public var serialized: String {
        var out = text + "\n"
        for signature in signatures {
            out += "\u{2014} \(signature.name) \(Data(signature.keyID + signature.signature).base64EncodedString())\n"
        }
        return out
    }

    /// Checks that `key` signed the text (signed-note: a signature whose name and key id match the key, and
    /// which verifies).
    /// - Throws: `.badSignature` when no signature is by `key` or its signature does not verify.
    public func verify(with key: NoteVerifierKey) throws(AuditError) {
        guard let signature = signatures.first(where: { $0.name == key.name && $0.keyID == key.keyID }) else {
            throw AuditError(.badSignature, "the note carries no signature by the key \(key.name)+\(key.keyIDText)")
        }
        guard key.publicKey.isValidSignature(signature.signature, for: Array(text.utf8)) else {
            throw AuditError(.badSignature, "the signature by \(key.name) does not verify")
        }
    }
}

extension NoteVerifierKey {
    /// The key id as 8 hex digits.
    var keyIDText: String { SignedNote.hex(keyID) }
}

extension SignedNote.Signature {
    /// `<key name>+<key id as 8 hex digits>`, as a verifier key names the key (`NoteVerifierKey.description`).
    public var keyText: String { "\(name)+\(SignedNote.hex(keyID))" }
}

extension SignedNote {
    /// A key id in lower-case hex digits, as signed-note verifier keys spell it.
    static func hex(_ keyID: [UInt8]) -> String { keyID.map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined() }
}
