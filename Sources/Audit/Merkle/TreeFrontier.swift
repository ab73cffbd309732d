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

    /// Appends the leaf whose hash is `leafHash` (`MerkleHash.leaf(entry)`).
    public mutating func append(leafHash: [UInt8]) {
        var hash = leafHash
        var index = size
        // Each trailing one bit of the old size is a perfect subtree of the new leaf's height: merge them.
        while index & 1 == 1 {
            hash = MerkleHash.node(hashes.removeLast(), hash)
            index >>= 1
        }
        hashes.append(hash)
        size += 1
    }

    /// RFC 6962 §2.1 MTH of the whole tree: the subtrees folded from the right.
    public var root: [UInt8] {
        guard var root = hashes.last else { return MerkleHash.emptyRoot }
        for hash in hashes.dropLast().reversed() { root = MerkleHash.node(hash, root) }
        return root
    }
}
