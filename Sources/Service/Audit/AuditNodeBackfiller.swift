import Audit
import Storage

/// Stores the node hashes of leaves appended without them: a log from before schema v10, or leaves an older binary
/// appended during a rolling upgrade (docs/audit.md). One write at a time, under the tree lock (the sequencer's,
/// so one node of several does it), at most `batchLimit` leaves per write, from the first leaf without nodes up:
/// each step rebuilds the frontier there from the nodes already stored, reads the batch's leaf hashes and stores
/// the nodes they complete, exactly as the sequencer would have. Until it catches up, proofs of trees larger than
/// the leaves with nodes are computed from every leaf hash instead.
package enum AuditNodeBackfiller {
    /// The most leaves one write covers: a short write (a few MB read, a few thousand rows written).
    package static let batchLimit: Int64 = 4_096

    /// One step. Returns whether every leaf has its nodes now (false also when another node holds the tree lock).
    package static func backfillBatch(store: any Store, limit: Int64 = batchLimit) async throws -> Bool {
        // A read first: a log with every node (the usual case) costs no write at each tick.
        let behind = try await store.read { reader in try reader.auditNodeSize() < (try reader.auditTree().size) }
        guard behind else { return true }
        return try await store.write { writer in
            guard let tree = try writer.lockAuditTree() else { return false }
            let from = try writer.auditNodeSize()
            guard from < tree.size else { return true }
            let ids = MerkleSubtree(start: 0, end: from).nodes
            guard var frontier = TreeFrontier(size: from, nodes: try writer.merkleNodes(ids)) else {
                throw StorageError(.internalFailure, "the audit nodes of the first \(from) leaves are not all stored")
            }
            let to = min(tree.size, from + max(1, limit))
            let leaves = try writer.auditLeaves(start: from, end: to)
            guard leaves.count == to - from else {
                throw StorageError(.internalFailure, "audit leaves \(from)..<\(to) are not all stored")
            }
            var nodes: [AuditNode] = []
            for leaf in leaves { nodes += frontier.append(leafHash: leaf.leafHash).map(AuditNode.init) }
            try writer.appendAuditNodes(nodes, from: from, to: to)
            return to == tree.size
        }
    }
}
