/// The position of a complete, aligned subtree of the audit tree: the `2^level` leaves from `index · 2^level`
/// (`Audit.MerkleNodeID`). Level 0 is a leaf, whose hash is the leaf's own (`AuditLeaf.leafHash`).
public struct AuditNodeID: Sendable, Hashable {
    public var level: Int
    public var index: Int64

    public init(level: Int, index: Int64) {
        self.level = level
        self.index = index
    }
}

/// The RFC 6962 hash of a complete, aligned subtree of level 1 or more, stored once its last leaf is in the log (by
/// the sequencer with that leaf, or by the backfill of leaves appended without them) so that a proof reads O(log n)
/// of them instead of every leaf. Never updated or deleted.
public struct AuditNode: Sendable, Hashable {
    public var id: AuditNodeID
    public var hash: [UInt8]

    public init(id: AuditNodeID, hash: [UInt8]) {
        self.id = id
        self.hash = hash
    }
}

extension AuditNode {
    /// The rule every driver applies before storing the nodes completed by the leaves [from, to): the stored nodes
    /// reach exactly `from` leaves, and the leaves up to `to` are in the log.
    package static func checkAppend(storedNodeSize: Int64, treeSize: Int64, from: Int64, to: Int64)
        throws(StorageError)
    {
        guard storedNodeSize == from, from <= to, to <= treeSize else {
            throw StorageError(
                .internalFailure,
                "audit nodes of leaves \(from)..<\(to): the stored nodes reach \(storedNodeSize) of \(treeSize) leaves")
        }
    }
}
