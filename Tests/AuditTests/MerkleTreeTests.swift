import Crypto
import TestSupport
import Testing

@testable import Audit

@Suite("RFC 6962 Merkle tree")
struct MerkleTreeTests {
    /// The leaf inputs and roots of the certificate-transparency reference test vectors (merkle_tree_test.cc).
    static let inputs = [
        "", "00", "10", "2021", "3031", "40414243", "5051525354555657", "606162636465666768696a6b6c6d6e6f",
    ]
    static let roots = [
        "6e340b9cffb37a989ca544e6bb780a2c78901d3fb33738768511a30617afa01d",
        "fac54203e7cc696cf0dfcb42c92a1d9dbaf70ad9e621f4bd8d98662f00e3c125",
        "aeb6bcfe274b70a14fb067a5e5578264db0fa9b51af5e0ba159158f329e06e77",
        "d37ee418976dd95753c1c73862b9398fa2a2cf9b4ff0fdfe8b30cd95209614b7",
        "4e3bbb1f7b478dcfe71fb631631519a3bca12c9aefca1612bfce4c13a86264d4",
        "76e67dadbcdf1e10e1b74ddc608abd2f98dfb16fbce75277b5232a127f2087ef",
        "ddb89be403809e325750d3d263cd78929c2942b7942a34b77e122c9594a74c8c",
        "5dc9da79a70659a9ad559cb701ded9a2ab9d823aad2f4960cfe370eff4604328",
    ]

    static func leaves(_ count: Int) -> [[UInt8]] {
        (0..<count).map { MerkleHash.leaf(Hex.decode(inputs[$0 % inputs.count]) + [UInt8($0 / inputs.count)]) }
    }

    @Test("roots match the reference vectors, both recomputed and appended through the frontier")
    func referenceRoots() throws {
        let hashes = Self.inputs.map { MerkleHash.leaf(Hex.decode($0)) }
        #expect(Hex.encode(MerkleTree.root([])) == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        var frontier = TreeFrontier()
        for size in 1...8 {
            #expect(Hex.encode(MerkleTree.root(Array(hashes[..<size]))) == Self.roots[size - 1])
            frontier.append(leafHash: hashes[size - 1])
            #expect(Hex.encode(frontier.root) == Self.roots[size - 1])
            let stored = try TreeFrontier(size: frontier.size, serialized: frontier.serialized)
            #expect(stored == frontier)
        }
    }

    @Test("inclusion proofs verify for every leaf of trees of 1 to 33 leaves, and fail when altered")
    func inclusion() throws {
        for size in 1...33 {
            let leaves = Self.leaves(size)
            let root = MerkleTree.root(leaves)
            for index in 0..<size {
                let proof = try MerkleTree.inclusionProof(index: index, leaves: leaves)
                #expect(
                    MerkleTree.verifyInclusion(
                        leafHash: leaves[index], index: index, treeSize: size, proof: proof, root: root))
                if size > 1 {
                    #expect(
                        !MerkleTree.verifyInclusion(
                            leafHash: leaves[(index + 1) % size], index: index, treeSize: size, proof: proof,
                            root: root))
                    var bad = proof
                    bad[0][0] ^= 1
                    #expect(
                        !MerkleTree.verifyInclusion(
                            leafHash: leaves[index], index: index, treeSize: size, proof: bad, root: root))
                }
            }
        }
        #expect(throws: AuditError.self) { try MerkleTree.inclusionProof(index: 3, leaves: Self.leaves(3)) }
    }

    @Test("consistency proofs verify between every pair of sizes up to 33, and fail for another history")
    func consistency() throws {
        let leaves = Self.leaves(33)
        for second in 1...33 {
            let secondRoot = MerkleTree.root(Array(leaves[..<second]))
            for first in 1...second {
                let firstRoot = MerkleTree.root(Array(leaves[..<first]))
                let proof = try MerkleTree.consistencyProof(first: first, leaves: Array(leaves[..<second]))
                #expect(
                    MerkleTree.verifyConsistency(
                        firstSize: first, secondSize: second, firstRoot: firstRoot, secondRoot: secondRoot,
                        proof: proof))
                if first < second {
                    var other = leaves
                    other[first - 1] = MerkleHash.leaf([0xFF])
                    let forged = MerkleTree.root(Array(other[..<first]))
                    #expect(
                        !MerkleTree.verifyConsistency(
                            firstSize: first, secondSize: second, firstRoot: forged, secondRoot: secondRoot,
                            proof: proof))
                }
            }
        }
    }
}
