/// The offline check of an exported log (`passkeyd audit verify`): recomputes the tree over the entries, checks the
/// checkpoint's signature, checks consistency with an earlier checkpoint, and names the first entry that is not
/// what the checkpoint commits to.
public struct LogVerifier: Sendable {
    /// What was verified.
    public struct Report: Sendable, Equatable {
        /// The size of the signed tree.
        public var treeSize: Int64
        /// Entries exported after the checkpoint (appended since, not yet signed; checked for order only).
        public var unsignedEntries: Int
        /// The size of the earlier checkpoint found consistent, if one was given.
        public var previousSize: Int64?
    }

    /// A failed check, naming the entry when one is to blame.
    public struct Failure: Error, Sendable, Equatable, CustomStringConvertible {
        /// The first entry (leaf index) that differs from what the checkpoint commits to, when known.
        public var entry: Int64?
        public var reason: String
        public var description: String {
            if let entry { return "entry \(entry): \(reason)" }
            return reason
        }
    }

    /// The key the checkpoints must be signed by.
    public let key: NoteVerifierKey

    public init(key: NoteVerifierKey) {
        self.key = key
    }

    /// Verifies `entries` (leaf bytes in order) against the signed `checkpoint` and, if given, the earlier signed
    /// checkpoint `previous`. `recordedLeafHashes`, the leaf hashes the server stored, are used only to name the
    /// entry at fault once they are shown to reproduce the signed root (they are then committed to by it).
    /// - Throws: `Failure`.
    public func verify(
        entries: [[UInt8]], checkpoint: String, previous: String? = nil, recordedLeafHashes: [[UInt8]]? = nil
    ) throws(Failure) -> Report {
        let signed = try checked(checkpoint, what: "checkpoint")
        let size = Int(signed.size)
        // Order first: a deleted, inserted or reordered entry shows as a `seq` out of place.
        for (index, leaf) in entries.enumerated() {
            guard AuditEntry.isCanonical(leaf) else {
                throw Failure(entry: Int64(index), reason: "not canonical JSON (RFC 8785): its bytes were changed")
            }
            guard let seq = AuditEntry.sequenceNumber(of: leaf), seq == Int64(index) else {
                let found = AuditEntry.sequenceNumber(of: leaf).map(String.init) ?? "none"
                throw Failure(
                    entry: Int64(index),
                    reason: "seq is \(found) at position \(index): an entry was deleted, inserted or reordered")
            }
        }
        guard entries.count >= size else {
            throw Failure(
                entry: Int64(entries.count),
                reason: "missing: the checkpoint commits to \(size) entries, the log holds \(entries.count) (truncated)"
            )
        }
        let hashes = entries.map { MerkleHash.leaf($0) }
        try match(hashes, size: size, root: signed.rootHash, recorded: recordedLeafHashes, what: "the checkpoint")
        var report = Report(treeSize: signed.size, unsignedEntries: entries.count - size, previousSize: nil)
        if let previous {
            let earlier = try checked(previous, what: "previous checkpoint")
            guard earlier.size <= signed.size else {
                throw Failure(
                    entry: nil,
                    reason: "the previous checkpoint (\(earlier.size)) is larger than the latest (\(signed.size)): "
                        + "the log was truncated or rolled back")
            }
            // RFC 6962 §2.1.2: the latest tree must extend the earlier one.
            let proof: [[UInt8]]
            do {
                proof = try MerkleTree.consistencyProof(first: Int(earlier.size), leaves: Array(hashes[..<size]))
            } catch {
                throw Failure(entry: nil, reason: "\(error)")
            }
            guard
                MerkleTree.verifyConsistency(
                    firstSize: Int(earlier.size), secondSize: size, firstRoot: earlier.rootHash,
                    secondRoot: signed.rootHash, proof: proof)
            else {
                try match(
                    hashes, size: Int(earlier.size), root: earlier.rootHash, recorded: nil,
                    what: "the previous checkpoint")
                throw Failure(entry: nil, reason: "the latest checkpoint is not consistent with the previous one")
            }
            report.previousSize = earlier.size
        }
        return report
    }

    /// Checks `note`'s signature by `key` and reads its checkpoint.
    private func checked(_ note: String, what: String) throws(Failure) -> Checkpoint {
        do {
            let parsed = try SignedNote(parsing: note)
            try parsed.verify(with: key)
            return try Checkpoint(text: parsed.text)
        } catch {
            throw Failure(entry: nil, reason: "\(what): \(error.reason)")
        }
    }

    /// Throws unless the first `size` leaf hashes have root `root`; names the first differing leaf when the
    /// recorded hashes reproduce the root, else says the entries as a whole do not match.
    private func match(
        _ hashes: [[UInt8]], size: Int, root: [UInt8], recorded: [[UInt8]]?, what: String
    ) throws(Failure) {
        guard MerkleTree.root(hashes[..<size]) != root else { return }
        if let recorded, recorded.count >= size, MerkleTree.root(recorded[..<size]) == root,
            let first = (0..<size).first(where: { hashes[$0] != recorded[$0] })
        {
            throw Failure(entry: Int64(first), reason: "its bytes differ from what \(what) commits to")
        }
        throw Failure(entry: nil, reason: "the entries do not hash to the root \(what) signs")
    }
}
