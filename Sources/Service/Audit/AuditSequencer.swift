import Audit
import Configuration
import Storage

/// Moves committed security events from the queue into the audit log: one write takes up to `batchLimit` queued
/// events, gives them the next gap-free leaf indexes, builds their canonical entries, appends the leaves with the
/// node hashes they complete and stores the new tree state, all or nothing. Only the holder of the tree lock sequences (one node of several on
/// PostgreSQL); requests never wait for it beyond their share of the writer.
package enum AuditSequencer {
    /// The most events one write sequences.
    package static let batchLimit = 500

    /// One batch, its entries recording client addresses as `addresses` says (`audit.client_address`). Returns how
    /// many events entered the log (0 when the queue was empty or another node sequences).
    package static func sequenceBatch(
        store: any Store, limit: Int = batchLimit, addresses: ClientAddressRecording = .full
    )
        async throws -> Int
    {
        try await store.write { writer in
            guard let from = try writer.lockAuditTree() else { return 0 }
            let events = try writer.takePendingSecurityEvents(limit: limit)
            guard !events.isEmpty else { return 0 }
            var frontier = try TreeFrontier(size: from.size, serialized: from.frontier)
            var leaves: [AuditLeaf] = []
            var nodes: [AuditNode] = []
            leaves.reserveCapacity(events.count)
            for event in events {
                let entry = try AuditEntry(event, seq: frontier.size, addresses: addresses).canonicalBytes()
                let hash = MerkleHash.leaf(entry)
                leaves.append(AuditLeaf(index: frontier.size, entry: entry, leafHash: hash))
                // The subtrees this leaf completes, from the frontier's hashes: what proofs read (docs/audit.md).
                nodes += frontier.append(leafHash: hash).map(AuditNode.init)
            }
            try writer.appendAuditLeaves(
                leaves, from: from, tree: AuditTreeState(size: frontier.size, frontier: frontier.serialized))
            // With the leaves when every earlier leaf has its nodes; otherwise the backfill gets to them
            // (`AuditNodeBackfiller`).
            if try writer.auditNodeSize() == from.size {
                try writer.appendAuditNodes(nodes, from: from.size, to: frontier.size)
            }
            return events.count
        }
    }

    /// Sequences until the queue is empty (or `maxBatches` writes were made). Returns the events sequenced.
    package static func drain(store: any Store, maxBatches: Int = 100, addresses: ClientAddressRecording = .full)
        async throws -> Int
    {
        // A read first: an idle server does not queue an empty write (nor take the lock) every tick.
        guard try await store.read({ try $0.pendingSecurityEventCount() }) > 0 else { return 0 }
        var total = 0
        for _ in 0..<maxBatches {
            let count = try await sequenceBatch(store: store, addresses: addresses)
            total += count
            guard count == batchLimit else { break }
        }
        return total
    }
}
