/// A complete, aligned subtree of the log's Merkle tree: the `2^level` leaves from `index · 2^level`. Level 0 is a
/// leaf. Every RFC 6962 subtree a proof names is a short list of these (`MerkleSubtree.nodes`), so a log that keeps
/// their hashes serves a proof from O(log n) of them.
public struct MerkleNodeID: Sendable, Hashable, CustomStringConvertible {
    /// The height: the node covers 2^level leaves.
    public let level: Int
    /// Its position among the nodes of its level, from 0.
    public let index: Int64

    public init(level: Int, index: Int64) {
        self.level = level
        self.index = index
    }

    /// The leaves it covers.
    public var leaves: Range<Int64> { (index << level)..<((index + 1) << level) }

    public var description: String { "node \(level)/\(index)" }
}

/// A complete, aligned subtree and its RFC 6962 §2.1 hash (MTH of its leaves).
public struct MerkleNode: Sendable, Hashable {
    public let id: MerkleNodeID
    public let hash: [UInt8]

    public init(id: MerkleNodeID, hash: [UInt8]) {
        self.id = id
        self.hash = hash
    }
}
