/// The structure of an RFC 6962 proof, apart from any hash: which subtrees' MTHs the proof lists, in order. One
/// definition of PATH (§2.1.1) and SUBPROOF (§2.1.2) serves both the in-memory proofs over every leaf hash
/// (`MerkleTree`) and the log's proofs from stored node hashes (`hashes(from:)`), so the two cannot disagree.
///
/// All but at most one of the subtrees are complete and aligned (those off the tree's right edge); the one on the
/// right edge is at most log n of them: a proof needs O(log n) node hashes (`nodeIDs`).
public struct MerkleProofPlan: Sendable, Equatable {
    /// The subtrees whose MTHs are the proof's hashes, in proof order.
    public let subtrees: [MerkleSubtree]

    /// RFC 6962 §2.1.1: the subtrees of PATH(index, D[treeSize]).
    /// - Throws: `.outOfRange` unless `0 <= index < treeSize`.
    public static func inclusion(index: Int64, treeSize: Int64) throws(AuditError) -> MerkleProofPlan {
        guard index >= 0, index < treeSize else {
            throw AuditError(.outOfRange, "leaf \(index) is not in a tree of \(treeSize)")
        }
        var subtrees: [MerkleSubtree] = []
        path(index, start: 0, end: treeSize, into: &subtrees)
        return MerkleProofPlan(subtrees: subtrees)
    }

    /// RFC 6962 §2.1.2: the subtrees of PROOF(first, D[second]).
    /// - Throws: `.outOfRange` unless `0 <= first <= second`.
    public static func consistency(first: Int64, second: Int64) throws(AuditError) -> MerkleProofPlan {
        guard first >= 0, first <= second else {
            throw AuditError(.outOfRange, "a tree of \(first) is not a prefix of a tree of \(second)")
        }
        var subtrees: [MerkleSubtree] = []
        // RFC 6962 §2.1.2: the proof is empty when m is 0 or m = n.
        if first > 0, first < second { subproof(first, start: 0, end: second, complete: true, into: &subtrees) }
        return MerkleProofPlan(subtrees: subtrees)
    }

    /// Every node whose hash the proof needs, each once.
    public var nodeIDs: [MerkleNodeID] {
        var seen = Set<MerkleNodeID>()
        return subtrees.flatMap(\.nodes).filter { seen.insert($0).inserted }
    }

    /// The proof's hashes from the hashes of `nodeIDs`, or nil when one of them is missing.
    public func hashes(from nodes: [MerkleNodeID: [UInt8]]) -> [[UInt8]]? {
        var proof: [[UInt8]] = []
        proof.reserveCapacity(subtrees.count)
        for subtree in subtrees {
            var hashes: [[UInt8]] = []
            for id in subtree.nodes {
                guard let hash = nodes[id] else { return nil }
                hashes.append(hash)
            }
            proof.append(MerkleSubtree.root(ofNodes: hashes))
        }
        return proof
    }

    // PATH(m, D[start:end]), appended in proof order (deepest sibling first).
    private static func path(_ m: Int64, start: Int64, end: Int64, into subtrees: inout [MerkleSubtree]) {
        guard end - start > 1 else { return }
        let split = start + MerkleTree.largestPowerOfTwo(below: end - start)
        if m < split - start {
            path(m, start: start, end: split, into: &subtrees)
            subtrees.append(MerkleSubtree(start: split, end: end))
        } else {
            path(m - (split - start), start: split, end: end, into: &subtrees)
            subtrees.append(MerkleSubtree(start: start, end: split))
        }
    }

    // SUBPROOF(m, D[start:end], b), appended in proof order.
    private static func subproof(
        _ m: Int64, start: Int64, end: Int64, complete: Bool, into subtrees: inout [MerkleSubtree]
    ) {
        if m == end - start {
            if !complete { subtrees.append(MerkleSubtree(start: start, end: end)) }
            return
        }
        let split = start + MerkleTree.largestPowerOfTwo(below: end - start)
        if m <= split - start {
            subproof(m, start: start, end: split, complete: complete, into: &subtrees)
            subtrees.append(MerkleSubtree(start: split, end: end))
        } else {
            subproof(m - (split - start), start: split, end: end, complete: false, into: &subtrees)
            subtrees.append(MerkleSubtree(start: start, end: split))
        }
    }
}
