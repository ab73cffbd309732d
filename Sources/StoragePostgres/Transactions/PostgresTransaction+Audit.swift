import Foundation
import Storage

/// The audit log's operations (docs/audit.md). With several nodes on one database, the sequencer is the node whose
/// transaction holds the transaction-scoped advisory lock; the tree row is also locked FOR UPDATE, so leaf indexes
/// stay gap-free and there is one tree whichever node appended.
extension PostgresTransaction {
    func auditTree() throws(StorageError) -> AuditTreeState {
        try one("SELECT size, frontier FROM audit_tree WHERE id = 1", []) { (row) throws(StorageError) in
            AuditTreeState(size: try row.integer(0), frontier: try row.bytes(1))
        } ?? AuditTreeState()
    }

    func auditLeaves(start: Int64, end: Int64) throws(StorageError) -> [AuditLeaf] {
        try connection.query(
            """
            SELECT \(Self.auditLeafColumns) FROM audit_log WHERE leaf_index >= $1 AND leaf_index < $2 \
            ORDER BY leaf_index
            """,
            [.int8(start), .int8(end)], Self.auditLeaf)
    }

    func auditNodes(_ ids: [AuditNodeID]) throws(StorageError) -> [AuditNodeID: [UInt8]] {
        guard !ids.isEmpty else { return [:] }
        // One statement whatever the number of ids (one prepared plan): the ids as arrays (sent as text, cast),
        // each looked up by primary key. Level 0 is the leaf's own hash.
        let nodes = ids.filter { $0.level > 0 }
        let leaves = ids.filter { $0.level == 0 }
        func array(_ values: [Int64]) -> PostgresValue {
            .text("{" + values.map(String.init).joined(separator: ",") + "}")
        }
        let rows = try connection.query(
            """
            SELECT n.level, n.idx, n.hash FROM unnest($1::bigint[], $2::bigint[]) AS w (level, idx)
            JOIN audit_nodes AS n ON n.level = w.level AND n.idx = w.idx
            UNION ALL
            SELECT 0::bigint, l.leaf_index, l.leaf_hash FROM audit_log AS l WHERE l.leaf_index = ANY ($3::bigint[])
            """,
            [array(nodes.map { Int64($0.level) }), array(nodes.map(\.index)), array(leaves.map(\.index))]
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
        Int(try one("SELECT count(*) FROM audit_pending", []) { (row) throws(StorageError) in try row.integer(0) } ?? 0)
    }

    func lockAuditTree() throws(StorageError) -> AuditTreeState? {
        guard try tryNodeLock(.audit) else { return nil }
        return try one("SELECT size, frontier FROM audit_tree WHERE id = 1 FOR UPDATE", []) {
            (row) throws(StorageError) in AuditTreeState(size: try row.integer(0), frontier: try row.bytes(1))
        }
    }

    func purgeSecurityEvents(before cutoff: Date, limit: Int) throws(StorageError) -> Int {
        // One node at a time, as the other purges (`purgeExpired`): another holding the lock purges for everyone.
        guard try tryNodeLock(.purge) else { return 0 }
        // Through the primary key: the oldest `limit` rows only, however large the table. An event still queued
        // for the sequencer (`audit_pending`, committed or being taken right now) stays.
        return try connection.execute(
            """
            DELETE FROM security_events WHERE seq IN (
                SELECT seq FROM (SELECT seq, occurred_at FROM security_events ORDER BY seq LIMIT $1) AS oldest
                WHERE occurred_at < $2 AND NOT EXISTS (SELECT 1 FROM audit_pending p WHERE p.event_seq = oldest.seq))
            """,
            [.integer(max(0, limit)), .date(cutoff)])
    }

    func takePendingSecurityEvents(limit: Int) throws(StorageError) -> [SecurityEvent] {
        // One statement: the queue rows committed so far (lowest seqs first) are deleted and their events returned.
        let events = try connection.query(
            """
            WITH taken AS (
                DELETE FROM audit_pending WHERE event_seq IN (
                    SELECT event_seq FROM audit_pending ORDER BY event_seq LIMIT $1 FOR UPDATE SKIP LOCKED)
                RETURNING event_seq)
            SELECT \(Self.securityEventColumns) FROM security_events WHERE seq IN (SELECT event_seq FROM taken)
            """,
            [.integer(max(0, limit))], Self.securityEvent)
        return events.sorted { $0.seq < $1.seq }
    }

    func appendAuditLeaves(_ leaves: [AuditLeaf], from: AuditTreeState, tree: AuditTreeState) throws(StorageError) {
        try AuditTreeState.checkAppend(leaves, from: from, to: tree)
        let moved = try connection.execute(
            "UPDATE audit_tree SET size = $1, frontier = $2 WHERE id = 1 AND size = $3",
            [.int8(tree.size), .bytea(tree.frontier), .int8(from.size)])
        guard moved == 1 else { throw StorageError(.internalFailure, "the audit tree moved from \(from.size)") }
        guard !leaves.isEmpty else { return }
        // One INSERT for the batch: unnest of parallel arrays would need array encoding; numbered parameters do.
        var placeholders: [String] = []
        var arguments: [PostgresValue] = []
        for (offset, leaf) in leaves.enumerated() {
            placeholders.append("($\(offset * 3 + 1), $\(offset * 3 + 2), $\(offset * 3 + 3))")
            arguments += [.int8(leaf.index), .bytea(leaf.entry), .bytea(leaf.leafHash)]
        }
        try connection.execute(
            "INSERT INTO audit_log (\(Self.auditLeafColumns)) VALUES \(placeholders.joined(separator: ", "))",
            arguments)
    }

    func appendAuditNodes(_ nodes: [AuditNode], from: Int64, to: Int64) throws(StorageError) {
        try AuditNode.checkAppend(
            storedNodeSize: try auditNodeSize(), treeSize: try auditTree().size, from: from, to: to)
        try connection.execute("UPDATE audit_tree SET nodes_size = $1 WHERE id = 1", [.int8(to)])
        // One INSERT per 1,000 nodes (numbered parameters, as the leaves).
        for start in stride(from: 0, to: nodes.count, by: 1_000) {
            var placeholders: [String] = []
            var arguments: [PostgresValue] = []
            for (offset, node) in nodes[start..<min(start + 1_000, nodes.count)].enumerated() {
                placeholders.append("($\(offset * 3 + 1), $\(offset * 3 + 2), $\(offset * 3 + 3))")
                arguments += [.int8(Int64(node.id.level)), .int8(node.id.index), .bytea(node.hash)]
            }
            try connection.execute(
                "INSERT INTO audit_nodes (level, idx, hash) VALUES \(placeholders.joined(separator: ", "))", arguments)
        }
    }

}
