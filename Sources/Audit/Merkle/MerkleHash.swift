import Crypto

/// The hashes of RFC 6962 §2.1 (SHA-256, with domain separation between leaves and interior nodes).
public enum MerkleHash {
    /// The size of every hash.
    public static let byteCount = 32

    /// RFC 6962 §2.1: MTH({}) = SHA-256() — the root of the empty tree.
    public static let emptyRoot: [UInt8] = Digest.sha256([UInt8]())

    /// RFC 6962 §2.1: MTH({d(0)}) = SHA-256(0x00 || d(0)).
    public static func leaf(_ entry: some Collection<UInt8>) -> [UInt8] {
        var input: [UInt8] = [0x00]
        input.reserveCapacity(entry.count + 1)
        input.append(contentsOf: entry)
        return Digest.sha256(input)
    }

    /// RFC 6962 §2.1: SHA-256(0x01 || left || right).
    public static func node(_ left: [UInt8], _ right: [UInt8]) -> [UInt8] {
        var input: [UInt8] = [0x01]
        input.reserveCapacity(1 + left.count + right.count)
        input.append(contentsOf: left)
        input.append(contentsOf: right)
        return Digest.sha256(input)
    }
}
