import Foundation

/// A signed checkpoint of the audit log (a C2SP signed note), kept append-only like the log.
public struct AuditCheckpointRecord: Sendable, Hashable {
    /// The tree size the note commits to.
    public var treeSize: Int64
    /// The signed note, as served by `GET /audit/checkpoint`.
    public var note: String
    /// When it was signed (server time).
    public var signedAt: Date

    public init(treeSize: Int64, note: String, signedAt: Date) {
        self.treeSize = treeSize
        self.note = note
        self.signedAt = signedAt
    }
}
