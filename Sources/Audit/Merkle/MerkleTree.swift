/// Roots and proofs over a list of leaf hashes, as RFC 6962 §2.1 defines them (MTH, PATH, PROOF).
///
/// The functions take every leaf hash of the tree they describe: O(n) time, which suits a verifier that holds the
/// whole log, and the server's proof endpoints for logs of a few million entries.
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
        guard index >= 0, index < leaves.count else {
            throw AuditError(.outOfRange, "leaf \(index) is not in a tree of \(leaves.count)")
        }
        return path(index, leaves[...])
    }

    private static func path(_ index: Int, _ leaves: ArraySlice<[UInt8]>) -> [[UInt8]] {
        guard leaves.count > 1 else { return [] }
        let k = largestPowerOfTwo(below: leaves.count)
        let split = leaves.startIndex + k
        if index < k { return path(index, leaves[..<split]) + [root(leaves[split...])] }
        return path(index - k, leaves[split...]) + [root(leaves[..<split])]
    }

    /// RFC 6962 §2.1.2: PROOF(m, D[n]), the consistency proof between the tree of the first `first` leaves and
    /// the tree of all `leaves`.
    /// - Throws: `.outOfRange` unless `0 <= first <= leaves.count`.
    public static func consistencyProof(first: Int, leaves: [[UInt8]]) throws(AuditError) -> [[UInt8]] {
        guard first >= 0, first <= leaves.count else {
            throw AuditError(.outOfRange, "a tree of \(first) is not a prefix of a tree of \(leaves.count)")
        }
        // RFC 6962 §2.1.2: the proof is empty when m is 0 or m = n.
        guard first > 0, first < leaves.count else { return [] }
        return subproof(first, leaves[...], complete: true)
    }

    private static func subproof(_ m: Int, _ leaves: ArraySlice<[UInt8]>, complete: Bool) -> [[UInt8]] {
        let n = leaves.count
        if m == n { return complete ? [] : [root(leaves)] }
        let k = largestPowerOfTwo(below: n)
        let split = leaves.startIndex + k
        if m <= k { return subproof(m, leaves[..<split], complete: complete) + [root(leaves[split...])] }
        return subproof(m - k, leaves[split...], complete: false) + [root(leaves[..<split])]
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
    static func largestPowerOfTwo(below n: Int) -> Int {
        var k = 1
        while k << 1 < n { k <<= 1 }
        return k
    }
}
