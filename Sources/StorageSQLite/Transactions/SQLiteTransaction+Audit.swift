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

    func auditNodes(_ ids: [AuditNodeID]) throws(StorageError) -> [AuditNodeID: [UInt8]] {
        guard !ids.isEmpty else { return [:] }
        // One statement whatever the number of ids (one cached plan): the ids as JSON arrays, each looked up by
        // primary key. Level 0 is the leaf's own hash.
        let leaves = ids.filter { $0.level == 0 }.map { String($0.index) }
        let nodes = ids.filter { $0.level > 0 }.map { "[\($0.level),\($0.index)]" }
        let rows = try database.query(
            """
            SELECT n.level, n.idx, n.hash FROM json_each(?1) AS w CROSS JOIN audit_nodes AS n
            ON n.level = w.value ->> 0 AND n.idx = w.value ->> 1
            UNION ALL
            SELECT 0, l.leaf_index, l.leaf_hash FROM json_each(?2) AS w CROSS JOIN audit_log AS l
            ON l.leaf_index = w.value
            """,
            [.text("[" + nodes.joined(separator: ",") + "]"), .text("[" + leaves.joined(separator: ",") + "]")]
        ) { (row) throws(StorageError) in
            AuditNode(
                id: AuditNodeID(level: Int(try row.integer(0)), index: try row.integer(1)), hash: try row.bytes(2))
        }
        return Dictionary(rows.map { ($0.id, $0.hash) }, uniquingKeysWith: { first, _ in first })
    }

    func auditNodeSize() throws(StorageError) -> Int64 {
        try one("SELECT nodes_size FROM audit_tree WHERE id = 1", []) { (row) throws(StorageError) in
            try row.integer(0)
        } ?? 0
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

    func purgeSecurityEvents(before cutoff: Date, limit: Int) throws(StorageError) -> Int {
        // Through the primary key: the oldest `limit` rows only, however large the table. An event the sequencer
        // has not taken yet (seq past `last_event_seq`) stays.
        try database.execute(
            """
            DELETE FROM security_events WHERE seq IN (
                SELECT seq FROM (SELECT seq, occurred_at FROM security_events ORDER BY seq LIMIT ?)
                WHERE occurred_at < ? AND seq <= (SELECT last_event_seq FROM audit_tree WHERE id = 1))
            """,
            [.integer(Int64(max(0, limit))), .date(cutoff)])
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

    func appendAuditNodes(_ nodes: [AuditNode], from: Int64, to: Int64) throws(StorageError) {
        try AuditNode.checkAppend(
            storedNodeSize: try auditNodeSize(), treeSize: try auditTree().size, from: from, to: to)
        try database.execute("UPDATE audit_tree SET nodes_size = ? WHERE id = 1", [.integer(to)])
        for node in nodes {
            try database.execute(
                "INSERT INTO audit_nodes (level, idx, hash) VALUES (?, ?, ?)",
                [.integer(Int64(node.id.level)), .integer(node.id.index), .blob(node.hash)])
        }
    }

}
