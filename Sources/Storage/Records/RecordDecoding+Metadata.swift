import Foundation

/// The stored metadata BLOB's row (`metadata_blobs`), the same for every SQL driver.
extension RecordDecoding {
    package static var metadataBLOBColumns: String { "serial, jws, sha256, next_update, loaded_at, source" }

    package static func metadataBLOB(_ row: Row) throws(StorageError) -> MetadataBLOBRecord {
        MetadataBLOBRecord(
            serial: try row.integer(0), jws: try row.text(1), sha256: try row.bytes(2), nextUpdate: try row.date(3),
            loadedAt: try row.date(4), source: try row.text(5))
    }
}
