/// One entry of the append-only audit log: its leaf index, its bytes (canonical JSON) and its RFC 6962 leaf hash.
/// Never updated or deleted (the databases refuse both with triggers).
public struct AuditLeaf: Sendable, Hashable {
    /// The position in the log, from 0, gap-free.
    public var index: Int64
    /// The entry's bytes, exactly what is hashed.
    public var entry: [UInt8]
    /// SHA-256(0x00 || entry), as computed when the entry was appended.
    public var leafHash: [UInt8]

    public init(index: Int64, entry: [UInt8], leafHash: [UInt8]) {
        self.index = index
        self.entry = entry
        self.leafHash = leafHash
    }
}
