/// The state that lets a log append leaves and know its root without reading old leaves: the roots of the
/// perfect subtrees that the tree of `size` leaves decomposes into (one per set bit of `size`, largest first),
/// as in RFC 9162 §2.1's definition of MTH on a split at the largest power of two.
public struct TreeFrontier: Sendable, Equatable {
    /// How many leaves the tree holds.
    public private(set) var size: Int64
    /// The perfect subtrees' roots, leftmost (largest) first.
    public private(set) var hashes: [[UInt8]]

    /// The empty tree.
    public init() {
        size = 0
        hashes = []
    }

    /// Reads the stored form (`serialized`) of a tree of `size` leaves.
    /// - Throws: `.malformed` when the bytes are not one 32-byte hash per set bit of `size`.
    public init(size: Int64, serialized: [UInt8]) throws(AuditError) {
        let count = size.nonzeroBitCount
        guard size >= 0, serialized.count == count * MerkleHash.byteCount else {
            throw AuditError(.malformed, "a tree of \(size) leaves needs \(count) frontier hashes")
        }
        self.size = size
        hashes = (0..<count).map {
            Array(serialized[($0 * MerkleHash.byteCount)..<(($0 + 1) * MerkleHash.byteCount)])
        }
    }

    /// The stored form: the hashes concatenated.
    public var serialized: [UInt8] { hashes.flatMap { $0 } }

    /// The frontier of a tree of `size` leaves from the hashes of its complete subtrees
    /// (`MerkleSubtree(start: 0, end: size).nodes`), or nil when one is missing from `nodes`.
    public init?(size: Int64, nodes: [MerkleNodeID: [UInt8]]) {
        var hashes: [[UInt8]] = []
        for id in MerkleSubtree(start: 0, end: size).nodes {
            guard let hash = nodes[id] else { return nil }
            hashes.append(hash)
        }
        self.size = size
        self.hashes = hashes
    }

    /// Appends the leaf whose hash is `leafHash` (`MerkleHash.leaf(entry)`). Returns the complete, aligned subtrees
    /// above the leaf that it completes (levels 1, 2, … while the new size is a multiple of 2^level), lowest first:
    /// what a log stores to serve proofs without reading leaves.
    @discardableResult
    public mutating func append(leafHash: [UInt8]) -> [MerkleNode] {
        var completed: [MerkleNode] = []
        var hash = leafHash
        var index = size
        var level = 0
        // Each trailing one bit of the old size is a perfect subtree of the new leaf's height: merge them.
        while index & 1 == 1 {
            hash = MerkleHash.node(hashes.removeLast(), hash)
            index >>= 1
            level += 1
            completed.append(MerkleNode(id: MerkleNodeID(level: level, index: index), hash: hash))
        }
        hashes.append(hash)
        size += 1
        return completed
    }

    /// RFC 6962 §2.1 MTH of the whole tree: the subtrees folded from the right.
    public var root: [UInt8] { MerkleSubtree.root(ofNodes: hashes) }
}
