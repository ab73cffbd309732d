import Foundation

/// The body of a C2SP transparency-log checkpoint (https://c2sp.org/tlog-checkpoint): origin, tree size in
/// decimal, base64 root hash, one per line.
public struct Checkpoint: Sendable, Equatable {
    /// The log's name (unique, schema-less URL form).
    public var origin: String
    public var size: Int64
    /// RFC 6962 MTH of the first `size` entries.
    public var rootHash: [UInt8]

    public init(origin: String, size: Int64, rootHash: [UInt8]) {
        self.origin = origin
        self.size = size
        self.rootHash = rootHash
    }

    /// The note text: three lines, each ending with a newline.
    public var text: String { "\(origin)\n\(size)\n\(Data(rootHash).base64EncodedString())\n" }

    /// Reads a checkpoint body (extension lines after the third are allowed and ignored).
    /// - Throws: `.malformed`.
    public init(text: String) throws(AuditError) {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        // tlog-checkpoint: the size is decimal without leading zeros; the hash a base64 SHA-256.
        guard lines.count >= 4, !lines[0].isEmpty, let size = Int64(lines[1]), size >= 0,
            String(size) == lines[1], let root = Data(base64Encoded: String(lines[2])),
            root.count == MerkleHash.byteCount
        else { throw AuditError(.malformed, "a checkpoint is origin, decimal size and base64 root, one per line") }
        origin = String(lines[0])
        self.size = size
        rootHash = Array(root)
    }

    /// Signs the checkpoint.
    public func signed(by signer: any NoteSigner) throws(AuditError) -> SignedNote {
        try SignedNote.sign(text, with: signer)
    }
}
