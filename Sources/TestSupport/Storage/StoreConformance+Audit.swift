import Foundation
import Storage

extension StoreConformance {
    static let auditChecks: [Check] = [
        Check("every appended event is queued for the audit log with its origin, and taken once, in seq order") {
            store in
            let origin = SecurityEventOrigin(requestID: "req-1", clientAddress: "192.0.2.1", nodeID: "node-a")
            try await store.write { writer in
                try SecurityEventOrigin.$current.withValue(origin) {
                    _ = try writer.appendSecurityEvent(SecurityEvent(occurredAt: S.at(1), kind: .login, outcome: "ok"))
                }
                _ = try writer.appendSecurityEvent(
                    SecurityEvent(
                        occurredAt: S.at(2), kind: .refresh, outcome: "failure", credentialID: S.bytes(0x11),
                        familyID: "family-1", requestID: "own-request"))
            }
            // A rolled-back append leaves nothing in the queue.
            try? await store.write { writer in
                _ = try writer.appendSecurityEvent(SecurityEvent(occurredAt: S.at(3), storedKind: "gone", outcome: "x"))
                throw StorageError(.internalFailure, "roll back")
            }
            try expectEqual(try await store.read { try $0.pendingSecurityEventCount() }, 2, "queued events")
            let first = try await store.write { try $0.takePendingSecurityEvents(limit: 1) }
            try expectEqual(first.map(\.kind), ["login"], "first batch")
            try expectEqual(first.first?.requestID, Optional("req-1"), "request id from the origin")
            try expectEqual(first.first?.clientAddress, "192.0.2.1", "client address from the origin")
            try expectEqual(first.first?.nodeID, "node-a", "node id from the origin")
            let rest = try await store.write { try $0.takePendingSecurityEvents(limit: 10) }
            try expectEqual(rest.map(\.kind), ["refresh"], "second batch")
            try expectEqual(rest.first?.familyID, "family-1", "family id round trip")
            try expectEqual(rest.first?.credentialID, S.bytes(0x11), "credential id round trip")
            try expectEqual(rest.first?.requestID, "own-request", "an event's own request id is kept")
            try expectEqual(try await store.write { try $0.takePendingSecurityEvents(limit: 10) }, [], "empty queue")
        },
        Check("events past their retention are purged oldest first, only once in the audit log; seqs never return") {
            store in
            let appended = try await store.write { writer in
                try (1...5).map { n in
                    try writer.appendSecurityEvent(
                        SecurityEvent(
                            occurredAt: S.at(Double(n)), storedKind: "event-\(n)", userID: "user-1", outcome: "ok"))
                }
            }
            // The sequencer has taken the first two; the third is still queued.
            _ = try await store.write { try $0.takePendingSecurityEvents(limit: 2) }
            // One at a time: the oldest first.
            try expectEqual(try await store.write { try $0.purgeSecurityEvents(before: S.at(4), limit: 1) }, 1, "one")
            try expectEqual(
                try await store.write { try $0.purgeSecurityEvents(before: S.at(4), limit: 100) }, 1, "the second")
            // Event 3 is older than the cutoff but not in the log yet; events 4 and 5 are not old enough.
            try expectEqual(
                try await store.write { try $0.purgeSecurityEvents(before: S.at(4), limit: 100) }, 0, "nothing more")
            let left = try await store.read { try $0.securityEvents(after: 0, limit: 100) }
            try expectEqual(left.map(\.kind), ["event-3", "event-4", "event-5"], "kept")
            try expectEqual(
                try await store.read { try $0.securityEvents(userID: "user-1", limit: 100) }.map(\.kind),
                ["event-5", "event-4", "event-3"], "the user's events")
            // Once the sequencer has taken them all, every old one goes; even with nothing left, a new event gets a
            // seq never given before.
            _ = try await store.write { try $0.takePendingSecurityEvents(limit: 100) }
            try expectEqual(
                try await store.write { try $0.purgeSecurityEvents(before: S.at(10), limit: 100) }, 3, "the rest")
            try expectEqual(try await store.read { try $0.securityEvents(after: 0, limit: 100) }, [], "none left")
            let next = try await store.write { writer in
                try writer.appendSecurityEvent(
                    SecurityEvent(occurredAt: S.at(11), storedKind: "event-6", outcome: "ok"))
            }
            let highest = appended.map(\.seq).max() ?? 0
            try expect(next.seq > highest, "seq \(next.seq) after \(highest)")
        },
        Check("audit leaves append gap-free with the tree state, and checkpoints are kept once per size") { store in
            let leaves = (0..<3).map { AuditLeaf(index: Int64($0), entry: [UInt8($0)], leafHash: S.bytes(UInt8($0))) }
            let tree = AuditTreeState(size: 3, frontier: S.bytes(0x01) + S.bytes(0x02))
            try await store.write { writer in
                guard let from = try writer.lockAuditTree() else { throw StorageError(.internalFailure, "no lock") }
                try expectEqual(from, AuditTreeState(), "empty tree")
                try writer.appendAuditLeaves(leaves, from: from, tree: tree)
            }
            try await expectStorageError(.internalFailure, "a stale tree state") {
                try await store.write { writer in
                    try writer.appendAuditLeaves(
                        [AuditLeaf(index: 0, entry: [9], leafHash: S.bytes(9))], from: AuditTreeState(),
                        tree: AuditTreeState(size: 1, frontier: S.bytes(9)))
                }
            }
            try await expectStorageError(.internalFailure, "a gap") {
                try await store.write { writer in
                    try writer.appendAuditLeaves(
                        [AuditLeaf(index: 4, entry: [9], leafHash: S.bytes(9))], from: tree,
                        tree: AuditTreeState(size: 4, frontier: S.bytes(9)))
                }
            }
            try expectEqual(try await store.read { try $0.auditTree() }, tree, "tree state")
            try expectEqual(
                try await store.read { try $0.auditLeaves(start: 1, end: 9) }, Array(leaves[1...]), "leaves")
            let checkpoint = AuditCheckpointRecord(treeSize: 3, note: "note\n", signedAt: S.at(5))
            try expectEqual(try await store.write { try $0.insertAuditCheckpoint(checkpoint) }, true, "stored")
            let other = AuditCheckpointRecord(treeSize: 3, note: "other\n", signedAt: S.at(6))
            try expectEqual(try await store.write { try $0.insertAuditCheckpoint(other) }, false, "same size kept")
            try expectEqual(try await store.read { try $0.latestAuditCheckpoint() }, Optional(checkpoint), "latest")
        },
        Check("audit nodes are stored with the leaves that complete them and read back in one call, leaves included") {
            store in
            let leaves = (0..<4).map { AuditLeaf(index: Int64($0), entry: [UInt8($0)], leafHash: S.bytes(UInt8($0))) }
            let nodes = [
                AuditNode(id: AuditNodeID(level: 1, index: 0), hash: S.bytes(0x10)),
                AuditNode(id: AuditNodeID(level: 1, index: 1), hash: S.bytes(0x11)),
                AuditNode(id: AuditNodeID(level: 2, index: 0), hash: S.bytes(0x20)),
            ]
            try expectEqual(try await store.read { try $0.auditNodeSize() }, 0, "no nodes")
            try await store.write { writer in
                guard let from = try writer.lockAuditTree() else { throw StorageError(.internalFailure, "no lock") }
                let tree = AuditTreeState(size: 2, frontier: [])
                try writer.appendAuditLeaves(Array(leaves[..<2]), from: from, tree: tree)
                try writer.appendAuditNodes([nodes[0]], from: 0, to: 2)
            }
            try expectEqual(try await store.read { try $0.auditNodeSize() }, 2, "nodes of 2 leaves")
            try await store.write { writer in
                let tree = AuditTreeState(size: 4, frontier: [])
                try writer.appendAuditLeaves(
                    Array(leaves[2...]), from: AuditTreeState(size: 2, frontier: []), tree: tree)
            }
            // Refused, storing nothing: not from where the stored nodes reach, or past the log's leaves.
            try await expectStorageError(.internalFailure, "not from the stored node size") {
                try await store.write { try $0.appendAuditNodes([nodes[1], nodes[2]], from: 0, to: 4) }
            }
            try await expectStorageError(.internalFailure, "past the leaves") {
                try await store.write { try $0.appendAuditNodes([nodes[1], nodes[2]], from: 2, to: 5) }
            }
            try expectEqual(
                try await store.read { try $0.auditNodes([nodes[2].id, nodes[1].id]) }, [:], "nothing stored")
            try expectEqual(try await store.read { try $0.auditNodeSize() }, 2, "still 2")
            try await store.write { try $0.appendAuditNodes([nodes[1], nodes[2]], from: 2, to: 4) }
            try expectEqual(try await store.read { try $0.auditNodeSize() }, 4, "nodes of 4 leaves")
            let ids = [
                AuditNodeID(level: 2, index: 0), AuditNodeID(level: 0, index: 3), AuditNodeID(level: 1, index: 1),
                AuditNodeID(level: 0, index: 0), AuditNodeID(level: 1, index: 0), AuditNodeID(level: 1, index: 2),
                AuditNodeID(level: 0, index: 4), AuditNodeID(level: 3, index: 0), AuditNodeID(level: 2, index: 0),
            ]
            try expectEqual(
                try await store.read { try $0.auditNodes(ids) },
                [
                    AuditNodeID(level: 2, index: 0): S.bytes(0x20), AuditNodeID(level: 1, index: 1): S.bytes(0x11),
                    AuditNodeID(level: 1, index: 0): S.bytes(0x10), AuditNodeID(level: 0, index: 3): S.bytes(3),
                    AuditNodeID(level: 0, index: 0): S.bytes(0),
                ], "stored nodes and leaf hashes, once each; the others absent")
            try expectEqual(try await store.read { try $0.auditNodes([]) }, [:], "no ids")
        },
    ]
}
