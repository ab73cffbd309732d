import TestSupport
import Testing

@testable import Audit

@Suite("RFC 6962 proofs from complete-subtree hashes")
struct MerkleProofPlanTests {
    /// Every node of a tree of `leaves`, as a log that stores them has them: level 0 the leaf hashes, the others
    /// as `TreeFrontier.append` completed them.
    static func nodes(_ leaves: [[UInt8]]) -> [MerkleNodeID: [UInt8]] {
        var nodes: [MerkleNodeID: [UInt8]] = [:]
        var frontier = TreeFrontier()
        for (index, leaf) in leaves.enumerated() {
            nodes[MerkleNodeID(level: 0, index: Int64(index))] = leaf
            for node in frontier.append(leafHash: leaf) { nodes[node.id] = node.hash }
        }
        return nodes
    }

    /// The recursions of RFC 6962 §2.1.1 and §2.1.2 as the server computed proofs before nodes were stored, kept
    /// here as an independent oracle.
    static func referencePath(_ m: Int, _ leaves: ArraySlice<[UInt8]>) -> [[UInt8]] {
        guard leaves.count > 1 else { return [] }
        let split = leaves.startIndex + MerkleTree.largestPowerOfTwo(below: leaves.count)
        if m < split - leaves.startIndex {
            return referencePath(m, leaves[..<split]) + [MerkleTree.root(leaves[split...])]
        }
        return referencePath(m - (split - leaves.startIndex), leaves[split...]) + [MerkleTree.root(leaves[..<split])]
    }

    static func referenceSubproof(_ m: Int, _ leaves: ArraySlice<[UInt8]>, _ complete: Bool) -> [[UInt8]] {
        if m == leaves.count { return complete ? [] : [MerkleTree.root(leaves)] }
        let k = MerkleTree.largestPowerOfTwo(below: leaves.count)
        let split = leaves.startIndex + k
        if m <= k { return referenceSubproof(m, leaves[..<split], complete) + [MerkleTree.root(leaves[split...])] }
        return referenceSubproof(m - k, leaves[split...], false) + [MerkleTree.root(leaves[..<split])]
    }

    @Test("the nodes a leaf completes are the MTHs of their leaves, and rebuild the frontier of every size")
    func completedNodes() {
        let leaves = MerkleTreeTests.leaves(70)
        let nodes = Self.nodes(leaves)
        #expect(nodes.count == 70 + 35 + 17 + 8 + 4 + 2 + 1)
        for (id, hash) in nodes {
            #expect(hash == MerkleTree.root(Array(leaves[Int(id.leaves.lowerBound)..<Int(id.leaves.upperBound)])))
        }
        var frontier = TreeFrontier()
        for size in 0...70 {
            #expect(TreeFrontier(size: Int64(size), nodes: nodes) == frontier, "frontier of \(size)")
            if size < 70 { frontier.append(leafHash: leaves[size]) }
        }
        #expect(TreeFrontier(size: 3, nodes: [:]) == nil)
    }

    @Test("inclusion proofs from nodes equal the in-memory and reference proofs up to 70 leaves, and verify")
    func inclusion() throws {
        let leaves = MerkleTreeTests.leaves(70)
        let nodes = Self.nodes(leaves)
        for size in 1...70 {
            let tree = Array(leaves[..<size])
            let root = MerkleTree.root(tree)
            for index in 0..<size {
                let plan = try MerkleProofPlan.inclusion(index: Int64(index), treeSize: Int64(size))
                let proof = try #require(plan.hashes(from: nodes))
                #expect(proof == (try MerkleTree.inclusionProof(index: index, leaves: tree)))
                #expect(proof == Self.referencePath(index, tree[...]), "\(index) in \(size)")
                #expect(
                    MerkleTree.verifyInclusion(
                        leafHash: tree[index], index: index, treeSize: size, proof: proof, root: root))
                // O(log n): one node per level, and the one subtree on the right edge one per set bit.
                #expect(plan.nodeIDs.count <= 2 * (Int64.bitWidth - Int64(size).leadingZeroBitCount))
                #expect(plan.nodeIDs.allSatisfy { $0.leaves.upperBound <= size })
            }
        }
        #expect(throws: AuditError.self) { try MerkleProofPlan.inclusion(index: 3, treeSize: 3) }
        #expect(throws: AuditError.self) { try MerkleProofPlan.inclusion(index: -1, treeSize: 3) }
    }

    @Test("consistency proofs from nodes equal the in-memory and reference proofs up to 40 leaves, and verify")
    func consistency() throws {
        let leaves = MerkleTreeTests.leaves(40)
        let nodes = Self.nodes(leaves)
        for second in 1...40 {
            let tree = Array(leaves[..<second])
            for first in 0...second {
                let plan = try MerkleProofPlan.consistency(first: Int64(first), second: Int64(second))
                let proof = try #require(plan.hashes(from: nodes))
                #expect(proof == (try MerkleTree.consistencyProof(first: first, leaves: tree)))
                let reference = first == 0 || first == second ? [] : Self.referenceSubproof(first, tree[...], true)
                #expect(proof == reference, "\(first) of \(second)")
                guard first > 0 else { continue }
                #expect(
                    MerkleTree.verifyConsistency(
                        firstSize: first, secondSize: second, firstRoot: MerkleTree.root(Array(tree[..<first])),
                        secondRoot: MerkleTree.root(tree), proof: proof))
                #expect(plan.nodeIDs.count <= 2 * (Int64.bitWidth - Int64(second).leadingZeroBitCount))
            }
        }
        #expect(throws: AuditError.self) { try MerkleProofPlan.consistency(first: 4, second: 3) }
    }

    @Test("a proof whose node is missing is nil, not wrong")
    func missingNode() throws {
        var nodes = Self.nodes(MerkleTreeTests.leaves(13))
        let plan = try MerkleProofPlan.inclusion(index: 2, treeSize: 13)
        nodes[try #require(plan.nodeIDs.last)] = nil
        #expect(plan.hashes(from: nodes) == nil)
    }
}
