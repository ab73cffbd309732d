import Foundation
import Storage

/// The audit log's operations (docs/audit.md). The one writer connection serializes every write, so the
/// transaction that calls `lockAuditTree` is the sequencer. The queue is the events after `last_event_seq`: seqs
/// are given under the write lock and committed in that order, so none can appear later below the mark.
extension SQLiteTransaction {
    func auditTree() throws(StorageError) -> AuditTreeState {
        try one("SELECT size, frontier FROM audit_tree WHERE id = 1", []) { (row) throws(StorageError) in
            AuditTreeState(size: try row.integer(0), frontier: try row.bytes(1))
        } ?? AuditTreeState()
    }

    func auditLeaves(start: Int64, end: Int64) throws(StorageError) -> [AuditLeaf] {
        try database.query(
            "SELECT \(Self.auditLeafColumns) FROM audit_log WHERE leaf_index >= ? AND leaf_index < ? ORDER BY leaf_index",
            [.integer(start), .integer(end)], Self.auditLeaf)
    }

    func latestAuditCheckpoint() throws(StorageError) -> AuditCheckpointRecord? {
        try one(
            "SELECT \(Self.auditCheckpointColumns) FROM audit_checkpoints ORDER BY tree_size DESC LIMIT 1", [],
            Self.auditCheckpoint)
    }

    func pendingSecurityEventCount() throws(StorageError) -> Int {
        Int(
            try one(
                "SELECT count(*) FROM security_events WHERE seq > (SELECT last_event_seq FROM audit_tree WHERE id = 1)",
                []
            ) { (row) throws(StorageError) in try row.integer(0) } ?? 0)
    }

    func lockAuditTree() throws(StorageError) -> AuditTreeState? {
        try auditTree()
    }

    func takePendingSecurityEvents(limit: Int) throws(StorageError) -> [SecurityEvent] {
        let events = try database.query(
            """
            SELECT \(Self.securityEventColumns) FROM security_events
            WHERE seq > (SELECT last_event_seq FROM audit_tree WHERE id = 1) ORDER BY seq LIMIT ?
            """,
            [.integer(Int64(max(0, limit)))], Self.securityEvent)
        guard let last = events.last else { return [] }
        try database.execute("UPDATE audit_tree SET last_event_seq = ? WHERE id = 1", [.integer(last.seq)])
        return events
    }

    func appendAuditLeaves(_ leaves: [AuditLeaf], from: AuditTreeState, tree: AuditTreeState) throws(StorageError) {
        try AuditTreeState.checkAppend(leaves, from: from, to: tree)
        let moved = try database.execute(
            "UPDATE audit_tree SET size = ?, frontier = ? WHERE id = 1 AND size = ?",
            [.integer(tree.size), .blob(tree.frontier), .integer(from.size)])
        guard moved == 1 else { throw StorageError(.internalFailure, "the audit tree moved from \(from.size)") }
        for leaf in leaves {
            try database.execute(
                "INSERT INTO audit_log (\(Self.auditLeafColumns)) VALUES (?, ?, ?)",
                [.integer(leaf.index), .blob(leaf.entry), .blob(leaf.leafHash)])
        }
    }

    func insertAuditCheckpoint(_ checkpoint: AuditCheckpointRecord) throws(StorageError) -> Bool {
        try database.execute(
            "INSERT INTO audit_checkpoints (\(Self.auditCheckpointColumns)) VALUES (?, ?, ?) ON CONFLICT DO NOTHING",
            [.integer(checkpoint.treeSize), .text(checkpoint.note), .date(checkpoint.signedAt)]) == 1
    }
}
