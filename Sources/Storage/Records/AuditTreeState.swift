/// The stored state of the audit log's Merkle tree: its size and the frontier that lets leaves be appended without
/// reading old ones (`Audit.TreeFrontier`'s serialized form). One row, changed only by the sequencer.
public struct AuditTreeState: Sendable, Hashable {
    /// How many leaves the log holds.
    public var size: Int64
    /// The frontier hashes, concatenated (32 bytes per set bit of `size`).
    public var frontier: [UInt8]

    public init(size: Int64 = 0, frontier: [UInt8] = []) {
        self.size = size
        self.frontier = frontier
    }
}

extension AuditTreeState {
    /// The rule every driver applies before appending: `leaves` continue the tree of `from` without a gap and
    /// `to` is the tree they make.
    package static func checkAppend(_ leaves: [AuditLeaf], from: AuditTreeState, to: AuditTreeState)
        throws(StorageError)
    {
        for (offset, leaf) in leaves.enumerated() where leaf.index != from.size + Int64(offset) {
            throw StorageError(
                .internalFailure, "audit leaf \(leaf.index) does not follow \(from.size + Int64(offset) - 1)")
        }
        guard to.size == from.size + Int64(leaves.count) else {
            throw StorageError(
                .internalFailure, "an audit tree of \(to.size) does not hold \(from.size) + \(leaves.count)")
        }
    }
}
