/// One subtree of RFC 6962 §2.1's recursion: the leaves [start, end), where `start` is a multiple of a power of two
/// at least `end - start` (the split at the largest power of two keeps that true all the way down from [0, n)).
/// Such a subtree is the complete, aligned subtrees of its size's binary decomposition, largest first, and its MTH
/// is their hashes folded from the right: what `TreeFrontier` keeps for the whole tree.
public struct MerkleSubtree: Sendable, Hashable, CustomStringConvertible {
    public let start: Int64
    public let end: Int64

    public init(start: Int64, end: Int64) {
        self.start = start
        self.end = end
    }

    /// The complete, aligned subtrees it is made of, leftmost (largest) first: one per set bit of its size.
    public var nodes: [MerkleNodeID] {
        var nodes: [MerkleNodeID] = []
        var offset = start
        let size = end - start
        for level in stride(from: Int64.bitWidth - 2, through: 0, by: -1) where size & (1 << level) != 0 {
            nodes.append(MerkleNodeID(level: level, index: offset >> level))
            offset += 1 << level
        }
        return nodes
    }

    /// RFC 6962 §2.1: MTH of the subtree from the hashes of its `nodes` (in their order): folded from the right.
    public static func root(ofNodes hashes: [[UInt8]]) -> [UInt8] {
        guard var root = hashes.last else { return MerkleHash.emptyRoot }
        for hash in hashes.dropLast().reversed() { root = MerkleHash.node(hash, root) }
        return root
    }

    public var description: String { "[\(start), \(end))" }
}
