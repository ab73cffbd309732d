/// Roots and proofs over a list of leaf hashes, as RFC 6962 §2.1 defines them (MTH, PATH, PROOF).
///
/// The functions take every leaf hash of the tree they describe: O(n) time, which suits a verifier that holds the
/// whole log. The proofs' structure is `MerkleProofPlan`'s, which the server's proof endpoints resolve from stored
/// node hashes instead (O(log n)).
public enum MerkleTree {
    /// RFC 6962 §2.1: MTH(D[n]).
    public static func root(_ leaves: ArraySlice<[UInt8]>) -> [UInt8] {
        switch leaves.count {
        case 0: return MerkleHash.emptyRoot
        case 1: return leaves[leaves.startIndex]
        default:
            let split = leaves.startIndex + largestPowerOfTwo(below: leaves.count)
            return MerkleHash.node(root(leaves[..<split]), root(leaves[split...]))
        }
    }

    /// `root` of a whole array.
    public static func root(_ leaves: [[UInt8]]) -> [UInt8] { root(leaves[...]) }

    /// RFC 6962 §2.1.1: PATH(m, D[n]), the inclusion proof of leaf `index` in the tree of `leaves`.
    /// - Throws: `.outOfRange` unless `0 <= index < leaves.count`.
    public static func inclusionProof(index: Int, leaves: [[UInt8]]) throws(AuditError) -> [[UInt8]] {
        hashes(of: try MerkleProofPlan.inclusion(index: Int64(index), treeSize: Int64(leaves.count)), leaves: leaves)
    }

    /// RFC 6962 §2.1.2: PROOF(m, D[n]), the consistency proof between the tree of the first `first` leaves and
    /// the tree of all `leaves`.
    /// - Throws: `.outOfRange` unless `0 <= first <= leaves.count`.
    public static func consistencyProof(first: Int, leaves: [[UInt8]]) throws(AuditError) -> [[UInt8]] {
        hashes(of: try MerkleProofPlan.consistency(first: Int64(first), second: Int64(leaves.count)), leaves: leaves)
    }

    /// The hashes of the proof `plan` over every leaf hash of its tree: each subtree's MTH recomputed (O(n)).
    public static func hashes(of plan: MerkleProofPlan, leaves: [[UInt8]]) -> [[UInt8]] {
        plan.subtrees.map { root(leaves[Int($0.start)..<Int($0.end)]) }
    }

    /// RFC 9162 §2.1.3.2: whether `proof` shows the leaf `leafHash` at `index` in the tree of `treeSize` with
    /// `root`.
    public static func verifyInclusion(
        leafHash: [UInt8], index: Int, treeSize: Int, proof: [[UInt8]], root: [UInt8]
    ) -> Bool {
        guard index >= 0, index < treeSize else { return false }
        var fn = index
        var sn = treeSize - 1
        var r = leafHash
        for p in proof {
            guard sn != 0 else { return false }
            if fn & 1 == 1 || fn == sn {
                r = MerkleHash.node(p, r)
                if fn & 1 == 0 {
                    repeat {
                        fn >>= 1
                        sn >>= 1
                    } while fn & 1 == 0 && fn != 0
                }
            } else {
                r = MerkleHash.node(r, p)
            }
            fn >>= 1
            sn >>= 1
        }
        return sn == 0 && r == root
    }

    /// RFC 9162 §2.1.4.2: whether `proof` shows that the tree of `firstSize` with `firstRoot` is a prefix of the
    /// tree of `secondSize` with `secondRoot`.
    public static func verifyConsistency(
        firstSize: Int, secondSize: Int, firstRoot: [UInt8], secondRoot: [UInt8], proof: [[UInt8]]
    ) -> Bool {
        guard firstSize >= 0, firstSize <= secondSize else { return false }
        if firstSize == secondSize { return proof.isEmpty && firstRoot == secondRoot }
        if firstSize == 0 { return proof.isEmpty }
        guard !proof.isEmpty else { return false }
        // Step 2: if first is an exact power of two, prepend first_hash to the proof.
        var path = proof
        if firstSize & (firstSize - 1) == 0 { path.insert(firstRoot, at: 0) }
        var fn = firstSize - 1
        var sn = secondSize - 1
        while fn & 1 == 1 {
            fn >>= 1
            sn >>= 1
        }
        var fr = path[0]
        var sr = path[0]
        for c in path.dropFirst() {
            guard sn != 0 else { return false }
            if fn & 1 == 1 || fn == sn {
                fr = MerkleHash.node(c, fr)
                sr = MerkleHash.node(c, sr)
                if fn & 1 == 0 {
                    repeat {
                        fn >>= 1
                        sn >>= 1
                    } while fn & 1 == 0 && fn != 0
                }
            } else {
                sr = MerkleHash.node(sr, c)
            }
            fn >>= 1
            sn >>= 1
        }
        return fr == firstRoot && sr == secondRoot && sn == 0
    }

    /// RFC 6962 §2.1: k, the largest power of two smaller than n (n > 1).
    static func largestPowerOfTwo<Integer: FixedWidthInteger>(below n: Integer) -> Integer {
        var k: Integer = 1
        while k << 1 < n { k <<= 1 }
        return k
    }
}
