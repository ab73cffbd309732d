import Audit
import Storage

// The stored form of the Merkle nodes (Storage does not depend on Audit).

extension AuditNodeID {
    package init(_ id: MerkleNodeID) { self.init(level: id.level, index: id.index) }
}

extension MerkleNodeID {
    package init(_ id: AuditNodeID) { self.init(level: id.level, index: id.index) }
}

extension AuditNode {
    package init(_ node: MerkleNode) { self.init(id: AuditNodeID(node.id), hash: node.hash) }
}

extension StoreReader {
    /// The stored hashes of `ids` (one query), keyed as the Audit target names them.
    package func merkleNodes(_ ids: [MerkleNodeID]) throws(StorageError) -> [MerkleNodeID: [UInt8]] {
        let stored = try auditNodes(ids.map(AuditNodeID.init))
        return Dictionary(uniqueKeysWithValues: stored.map { (MerkleNodeID($0.key), $0.value) })
    }
}
