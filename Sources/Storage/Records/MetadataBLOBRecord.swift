import Foundation

/// A FIDO Metadata Service BLOB as stored (`metadata_blobs`, schema v19): the JWS text exactly as it was verified,
/// and the plain fields a node needs without verifying it again (which BLOB, how fresh). Only the newest is kept.
/// The store never trusts it: every node verifies the JWS again before it uses the entries (`MetadataRegistry`).
public struct MetadataBLOBRecord: Sendable, Hashable {
    /// The BLOB's `no` (FIDO MDS 3.0 §3.1.6): its key; a newer BLOB has a larger one.
    public var serial: Int64
    /// The compact JWS, as given.
    public var jws: String
    /// SHA-256 of the JWS text's UTF-8: what tells two BLOBs with the same serial apart.
    public var sha256: [UInt8]
    /// The BLOB's `nextUpdate` (a UTC day, as a time: its start).
    public var nextUpdate: Date
    /// When it was verified and stored.
    public var loadedAt: Date
    /// Where it came from: `file:<path>` (`metadata.blob_file`, read by a server) or `cli` (`passkeyd metadata load`).
    public var source: String

    /// Creates a stored-BLOB record.
    public init(serial: Int64, jws: String, sha256: [UInt8], nextUpdate: Date, loadedAt: Date, source: String) {
        self.serial = serial
        self.jws = jws
        self.sha256 = sha256
        self.nextUpdate = nextUpdate
        self.loadedAt = loadedAt
        self.source = source
    }
}
