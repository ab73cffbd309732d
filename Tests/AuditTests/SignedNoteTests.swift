import Crypto
import Foundation
import Testing

@testable import Audit

@Suite("C2SP signed notes and checkpoints")
struct SignedNoteTests {
    /// The example of golang.org/x/mod/sumdb/note's documentation (an independent implementation).
    static let goVerifierKey = "PeterNeumann+c74f20a3+ARpc2QcUPDhMQegwxbzhKqiBfsVkmqq/LDE4izWy10TW"
    static let goNote = """
        If you think cryptography is the answer to your problem,
        then you don't know what your problem is.

        — PeterNeumann x08go/ZJkuBS9UG/SffcvIAQxVBtiFupLLr8pAcElZInNIuGUgYN1FFYC2pZSNXgKvqfqdngotpRZb6KE6RyyBwJnAM=

        """

    @Test("the Go sumdb/note example parses and verifies; its key round-trips")
    func goExample() throws {
        let key = try NoteVerifierKey(parsing: Self.goVerifierKey)
        #expect(key.description == Self.goVerifierKey)
        let note = try SignedNote(parsing: Self.goNote)
        try note.verify(with: key)
        #expect(note.serialized == Self.goNote)
        let changed = Self.goNote.replacingOccurrences(of: "answer", with: "Answer")
        #expect(throws: AuditError.self) { try SignedNote(parsing: changed).verify(with: key) }
    }

    @Test("a signed checkpoint verifies with its key and not with another")
    func checkpoint() throws {
        let signer = try SoftwareNoteSigner(name: "example.org/audit", key: Ed25519SigningKey())
        let other = try SoftwareNoteSigner(name: "example.org/audit", key: Ed25519SigningKey())
        let body = Checkpoint(origin: "example.org/audit", size: 3, rootHash: MerkleHash.emptyRoot)
        let note = try body.signed(by: signer)
        let parsed = try SignedNote(parsing: note.serialized)
        try parsed.verify(with: signer.verifierKey)
        #expect(try Checkpoint(text: parsed.text) == body)
        #expect(throws: AuditError.self) { try parsed.verify(with: other.verifierKey) }
        #expect(try NoteVerifierKey(parsing: signer.verifierKey.description) == signer.verifierKey)
        #expect(throws: AuditError.self) { try Checkpoint(text: "o\n03\nAAAA\n") }
    }

    /// `note` with line `line` of its signed text (0: origin, 1: tree size, 2: root hash) replaced by `text`, its
    /// blank line and signature lines kept as they are.
    static func editing(_ note: String, line: Int, to text: String) -> String {
        guard let split = note.range(of: "\n\n") else { return note }
        var lines = note[..<split.lowerBound].split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        lines[line] = text
        return lines.joined(separator: "\n") + note[split.lowerBound...]
    }

    @Test(
        "a checkpoint whose text is edited under its kept signature is still a checkpoint, and its signature fails",
        arguments: [
            (1, "4"), (1, "30"), (2, Data(MerkleHash.leaf([1])).base64EncodedString()), (0, "example.org/other"),
        ])
    func editedText(line: Int, text: String) throws {
        let signer = try SoftwareNoteSigner(name: "example.org/audit", key: Ed25519SigningKey())
        let leaves = (0..<3).map { MerkleHash.leaf([UInt8($0)]) }
        let body = Checkpoint(origin: "example.org/audit", size: 3, rootHash: MerkleTree.root(leaves))
        let edited = Self.editing(try body.signed(by: signer).serialized, line: line, to: text)
        let note = try SignedNote(parsing: edited)
        // Only the signature tells: the edited text parses as a checkpoint, unlike the original.
        #expect(try Checkpoint(text: note.text) != body)
        #expect(note.signatures.count == 1)
        let error = #expect(throws: AuditError.self) { try note.verify(with: signer.verifierKey) }
        #expect(error?.code == .badSignature)
        #expect(error?.reason == "the signature by example.org/audit does not verify")
    }
}
