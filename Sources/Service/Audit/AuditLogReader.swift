import Audit
import Foundation
import Storage

/// What the audit log's read endpoints answer (`GET /audit/entries`, `/audit/proof/inclusion`,
/// `/audit/proof/consistency`): the ranges RFC 6962 defines, checked against the tree as stored, and the proofs
/// computed from its node hashes. The endpoints parse the query and render; the rules are here.
package struct AuditLogReader: Sendable {
    package let store: any Store
    package let logger: Logger

    /// The most entries one `/audit/entries` call returns.
    package static let maxEntriesPerCall: Int64 = 1_000

    /// A range or index outside the tree as stored: the client's mistake (400), said in `message`.
    package struct RangeError: Error, Equatable {
        package let message: String
    }

    package init(store: any Store, logger: Logger) {
        self.store = store
        self.logger = logger
    }

    /// The checkpoint signed last, or nil when none has been signed yet.
    package func latestCheckpoint() async throws -> AuditCheckpointRecord? {
        try await store.read { try $0.latestAuditCheckpoint() }
    }

    /// The entries `start..<end`, each as stored (the canonical JSON line the leaf hashes).
    /// - Throws: `RangeError` unless 0 <= start < end <= the tree size and end - start <= `maxEntriesPerCall`;
    ///   `StorageError` when the log cannot be read.
    package func entries(start: Int64, end: Int64) async throws -> [[UInt8]] {
        let (size, leaves) = try await store.read { reader -> (Int64, [AuditLeaf]?) in
            let size = try reader.auditTree().size
            guard start >= 0, start < end, end <= size, end - start <= Self.maxEntriesPerCall else {
                return (size, nil)
            }
            return (size, try reader.auditLeaves(start: start, end: end))
        }
        guard let leaves else {
            throw RangeError(
                message:
                    "need 0 <= start < end <= \(size) (the tree size) and at most \(Self.maxEntriesPerCall) entries")
        }
        return leaves.map(\.entry)
    }

    /// The inclusion proof of leaf `index` in the tree of `treeSize` leaves (RFC 6962 §2.1.1: PATH(m, D[n]) is
    /// defined for 0 <= m < n).
    /// - Throws: `RangeError` unless 0 <= index < treeSize <= the tree size; `StorageError`.
    package func inclusionProof(index: Int64, treeSize: Int64) async throws -> [[UInt8]] {
        guard let plan = try? MerkleProofPlan.inclusion(index: index, treeSize: treeSize),
            let proof = try await proofHashes(plan, treeSize: treeSize)
        else { throw RangeError(message: "need 0 <= index < tree_size <= the tree size") }
        return proof
    }

    /// The consistency proof between the trees of `first` and `second` leaves (RFC 6962 §2.1.2: PROOF(m, D[n]) for
    /// 0 < m <= n; a proof from the empty tree says nothing).
    /// - Throws: `RangeError` unless 1 <= first <= second <= the tree size; `StorageError`.
    package func consistencyProof(first: Int64, second: Int64) async throws -> [[UInt8]] {
        guard first >= 1, let plan = try? MerkleProofPlan.consistency(first: first, second: second),
            let proof = try await proofHashes(plan, treeSize: second)
        else { throw RangeError(message: "need 1 <= first <= second <= the tree size") }
        return proof
    }

    /// The hashes of `plan`'s proof, for a tree of `treeSize` leaves, in one read; nil when the tree is smaller. From
    /// the stored nodes when the first `treeSize` leaves have theirs (docs/audit.md), otherwise (leaves waiting for
    /// the node backfill) from every leaf hash, as proofs were served before nodes were stored.
    private func proofHashes(_ plan: MerkleProofPlan, treeSize: Int64) async throws -> [[UInt8]]? {
        let result = try await store.read { reader -> (proof: [[UInt8]], missingNode: Bool)? in
            guard treeSize <= (try reader.auditTree().size) else { return nil }
            let nodesStored = treeSize <= (try reader.auditNodeSize())
            if nodesStored, let proof = plan.hashes(from: try reader.merkleNodes(plan.nodeIDs)) {
                return (proof, false)
            }
            let leaves = try reader.auditLeaves(start: 0, end: treeSize).map(\.leafHash)
            return (MerkleTree.hashes(of: plan, leaves: leaves), nodesStored)
        }
        if result?.missingNode == true {
            logger.log(.error, "audit proof: a stored node is missing, served from every leaf instead") {
                $0.add("tree_size", Int(treeSize))
            }
        }
        return result?.proof
    }
}
