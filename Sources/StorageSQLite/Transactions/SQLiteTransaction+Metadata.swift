import Foundation
import Storage

/// The stored metadata BLOB and the credentials by AAGUID on SQLite. The single writer serializes
/// `storeMetadataBLOB`: its read of the stored serial and its write cannot interleave with another node's.
extension SQLiteTransaction {
    func latestMetadataBLOB() throws(StorageError) -> MetadataBLOBRecord? {
        try one(
            "SELECT \(Self.metadataBLOBColumns) FROM metadata_blobs ORDER BY serial DESC LIMIT 1", [],
            Self.metadataBLOB)
    }

    func latestMetadataSerial() throws(StorageError) -> Int64? {
        try one("SELECT max(serial) FROM metadata_blobs", []) { (row) throws(StorageError) -> Int64? in
            try row.isNull(0) ? nil : try row.integer(0)
        } ?? nil
    }

    func credentials(aaguid: [UInt8], afterCredentialID: [UInt8]?, limit: Int) throws(StorageError) -> [Credential] {
        try database.query(
            """
            SELECT \(Self.credentialColumns) FROM credentials WHERE aaguid = ? AND credential_id > ?
            ORDER BY credential_id LIMIT ?
            """,
            [.blob(aaguid), .blob(afterCredentialID ?? []), .integer(Int64(max(0, limit)))], Self.credential)
    }

    func storeMetadataBLOB(_ record: MetadataBLOBRecord) throws(StorageError) -> MetadataBLOBStoreOutcome {
        let outcome = MetadataBLOBStoreOutcome.deciding(record, over: try latestMetadataBLOB())
        guard outcome == .stored else { return outcome }
        _ = try database.execute("DELETE FROM metadata_blobs", [])
        _ = try database.execute(
            "INSERT INTO metadata_blobs (\(Self.metadataBLOBColumns)) VALUES (?, ?, ?, ?, ?, ?)",
            [
                .integer(record.serial), .text(record.jws), .blob(record.sha256), .date(record.nextUpdate),
                .date(record.loadedAt), .text(record.source),
            ])
        return outcome
    }
}
