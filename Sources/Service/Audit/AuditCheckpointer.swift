import Audit
import Foundation
import Storage

/// Signs a checkpoint of the audit tree when it grew since the last one, off the request path: the tree's size and
/// root are read, the note is signed outside any transaction (an HSM call), then stored unless a checkpoint of that
/// size exists (another node signed it).
package enum AuditCheckpointer {
    /// Signs and stores a checkpoint if the tree is larger than the latest one. Returns the new checkpoint, if any.
    package static func checkpointIfGrown(store: any Store, signer: any NoteSigner, origin: String, now: Date)
        async throws
        -> AuditCheckpointRecord?
    {
        let (tree, latest) = try await store.read { reader in
            (try reader.auditTree(), try reader.latestAuditCheckpoint())
        }
        guard tree.size > (latest?.treeSize ?? 0) else { return nil }
        let frontier = try TreeFrontier(size: tree.size, serialized: tree.frontier)
        let note = try Checkpoint(origin: origin, size: tree.size, rootHash: frontier.root).signed(by: signer)
        let record = AuditCheckpointRecord(treeSize: tree.size, note: note.serialized, signedAt: now)
        let stored = try await store.write { try $0.insertAuditCheckpoint(record) }
        return stored ? record : nil
    }
}
