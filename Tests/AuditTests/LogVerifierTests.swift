import Crypto
import Foundation
import Testing

@testable import Audit

@Suite("Offline log verifier")
struct LogVerifierTests {
    struct Log {
        var entries: [[UInt8]]
        var signer: SoftwareNoteSigner
        func checkpoint(size: Int) throws -> String {
            let root = MerkleTree.root(entries[..<size].map { MerkleHash.leaf($0) })
            return try Checkpoint(origin: "test/audit", size: Int64(size), rootHash: root).signed(by: signer)
                .serialized
        }
    }

    static func log(_ count: Int) throws -> Log {
        let entries = try (0..<count).map { index in
            var entry = AuditEntry(
                seq: Int64(index), time: Date(timeIntervalSince1970: 1_700_000_000 + Double(index)), event: "login",
                outcome: "success")
            entry.userID = "user-\(index)"
            entry.requestID = "req-\(index)"
            return try entry.canonicalBytes()
        }
        return Log(entries: entries, signer: try SoftwareNoteSigner(name: "test/audit", key: Ed25519SigningKey()))
    }

    @Test("an intact log verifies, with its previous checkpoint and entries appended since")
    func intact() throws {
        let log = try Self.log(10)
        let verifier = LogVerifier(key: log.signer.verifierKey)
        let report = try verifier.verify(
            entries: log.entries, checkpoint: try log.checkpoint(size: 9), previous: try log.checkpoint(size: 4))
        #expect(report == LogVerifier.Report(treeSize: 9, unsignedEntries: 1, previousSize: 4))
    }

    @Test("entries are canonical JSON with the fields in RFC 8785 order and bounded strings")
    func entryFormat() throws {
        var entry = AuditEntry(seq: 7, time: Date(timeIntervalSince1970: 1.5), event: "login", outcome: "failure")
        entry.reason = String(repeating: "x", count: 500)
        entry.clientID = "web"
        let text = String(decoding: try entry.canonicalBytes(), as: UTF8.self)
        #expect(text.hasPrefix("{\"actor\":{\"client_id\":\"web\"},\"event\":\"login\",\"outcome\":\"failure\","))
        #expect(text.contains("\"time\":\"1970-01-01T00:00:01.500Z\""))
        #expect(text.contains("\"reason\":\"" + String(repeating: "x", count: AuditEntry.maxStringScalars) + "\""))
    }

    func failure(_ body: () throws -> LogVerifier.Report) -> LogVerifier.Failure? {
        do {
            _ = try body()
            return nil
        } catch let failure as LogVerifier.Failure {
            return failure
        } catch {
            return LogVerifier.Failure(entry: nil, reason: "\(error)")
        }
    }

    /// Edits of a signed checkpoint's text that keep its signature lines.
    enum TextEdit: String, CaseIterable, Sendable {
        /// The size alone (the root then matches no prefix of the log).
        case treeSize = "tree size"
        /// An entry rewritten, and the root it now hashes to written in: the signature is all that stands in the way.
        case rootHash = "root hash"
        /// Another log's name.
        case origin = "origin line"
        /// A rollback: a smaller size and that prefix's true root, so the last entries look appended since.
        case sizeAndRoot = "tree size and root hash"
    }

    @Test(
        "a checkpoint whose text is edited while its signature is kept is refused: the signature does not verify",
        arguments: TextEdit.allCases)
    func editedCheckpoint(edit: TextEdit) throws {
        let log = try Self.log(8)
        let verifier = LogVerifier(key: log.signer.verifierKey)
        let note = try log.checkpoint(size: 8)
        var entries = log.entries
        let edited: String
        switch edit {
        case .treeSize:
            edited = SignedNoteTests.editing(note, line: 1, to: "7")
        case .rootHash:
            var other = AuditEntry(
                seq: 5, time: Date(timeIntervalSince1970: 1_700_000_005), event: "login", outcome: "success")
            other.userID = "someone-else"
            entries[5] = try other.canonicalBytes()
            let root = MerkleTree.root(entries.map { MerkleHash.leaf($0) })
            edited = SignedNoteTests.editing(note, line: 2, to: Data(root).base64EncodedString())
        case .origin:
            edited = SignedNoteTests.editing(note, line: 0, to: "test/other")
        case .sizeAndRoot:
            let root = MerkleTree.root(entries[..<6].map { MerkleHash.leaf($0) })
            edited = SignedNoteTests.editing(
                SignedNoteTests.editing(note, line: 1, to: "6"), line: 2, to: Data(root).base64EncodedString())
        }
        #expect(edited != note && edited.hasSuffix(note[note.range(of: "\n\n")!.lowerBound...]))
        let refusal = failure { try verifier.verify(entries: entries, checkpoint: edited) }
        #expect(
            refusal
                == LogVerifier.Failure(entry: nil, reason: "checkpoint: the signature by test/audit does not verify"))
    }

    @Test("an earlier checkpoint whose size and root are edited under its kept signature is refused as well")
    func editedPreviousCheckpoint() throws {
        let log = try Self.log(8)
        let verifier = LogVerifier(key: log.signer.verifierKey)
        let root = MerkleTree.root(log.entries[..<3].map { MerkleHash.leaf($0) })
        let previous = SignedNoteTests.editing(
            SignedNoteTests.editing(try log.checkpoint(size: 4), line: 1, to: "3"), line: 2,
            to: Data(root).base64EncodedString())
        let checkpoint = try log.checkpoint(size: 8)
        let refusal = failure { try verifier.verify(entries: log.entries, checkpoint: checkpoint, previous: previous) }
        #expect(
            refusal
                == LogVerifier.Failure(
                    entry: nil, reason: "previous checkpoint: the signature by test/audit does not verify"))
    }

    @Test("tampering is found and the entry named: changed byte, deleted, reordered, truncated, other key")
    func tampering() throws {
        let log = try Self.log(8)
        let checkpoint = try log.checkpoint(size: 8)
        let verifier = LogVerifier(key: log.signer.verifierKey)
        let recorded = log.entries.map { MerkleHash.leaf($0) }

        var changed = log.entries
        let marker = Array("req-5".utf8)
        let at = try #require(
            (0...(changed[5].count - marker.count)).first { Array(changed[5][$0..<($0 + marker.count)]) == marker })
        changed[5][at + 4] = UInt8(ascii: "9")
        let byte = failure {
            try verifier.verify(entries: changed, checkpoint: checkpoint, recordedLeafHashes: recorded)
        }
        #expect(byte?.entry == 5)

        var deleted = log.entries
        deleted.remove(at: 3)
        #expect(failure { try verifier.verify(entries: deleted, checkpoint: checkpoint) }?.entry == 3)

        var reordered = log.entries
        reordered.swapAt(2, 6)
        #expect(failure { try verifier.verify(entries: reordered, checkpoint: checkpoint) }?.entry == 2)

        let truncated = Array(log.entries.prefix(6))
        #expect(failure { try verifier.verify(entries: truncated, checkpoint: checkpoint) }?.entry == 6)

        let foreign = try SoftwareNoteSigner(name: "test/audit", key: Ed25519SigningKey())
        let root = MerkleTree.root(recorded)
        let forged = try Checkpoint(origin: "test/audit", size: 8, rootHash: root).signed(by: foreign).serialized
        let foreignFailure = failure { try verifier.verify(entries: log.entries, checkpoint: forged) }
        #expect(foreignFailure?.reason.contains("no signature by the key") == true)

        // A rewritten history (same size, another entry 1, re-signed) is not consistent with a kept checkpoint.
        var rewritten = log
        var other = AuditEntry(seq: 1, time: Date(), event: "login", outcome: "failure")
        other.userID = "someone-else"
        rewritten.entries[1] = try other.canonicalBytes()
        let kept = try log.checkpoint(size: 4)
        let rollback = failure {
            try verifier.verify(
                entries: rewritten.entries, checkpoint: try rewritten.checkpoint(size: 8), previous: kept)
        }
        #expect(rollback?.reason.contains("previous checkpoint") == true)
    }
}
