import Foundation
import Storage

/// The stored metadata BLOB and the credentials by AAGUID on PostgreSQL.
extension PostgresTransaction {
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
        try connection.query(
            """
            SELECT \(Self.credentialColumns) FROM credentials WHERE aaguid = $1 AND credential_id > $2
            ORDER BY credential_id LIMIT $3
            """,
            [.bytea(aaguid), .bytea(afterCredentialID ?? []), .integer(max(0, limit))], Self.credential)
    }

    /// The table is locked against other writers of it until commit (SHARE ROW EXCLUSIVE conflicts with itself,
    /// not with readers): the serial read and the write run one node at a time, so two nodes loading at once
    /// cannot take the stored BLOB backwards (FIDO MDS 3.0 §3.1.6).
    func storeMetadataBLOB(_ record: MetadataBLOBRecord) throws(StorageError) -> MetadataBLOBStoreOutcome {
        _ = try connection.command("LOCK TABLE metadata_blobs IN SHARE ROW EXCLUSIVE MODE")
        let outcome = MetadataBLOBStoreOutcome.deciding(record, over: try latestMetadataBLOB())
        guard outcome == .stored else { return outcome }
        _ = try connection.execute("DELETE FROM metadata_blobs")
        _ = try connection.execute(
            "INSERT INTO metadata_blobs (\(Self.metadataBLOBColumns)) VALUES ($1, $2, $3, $4, $5, $6)",
            [
                .int8(record.serial), .text(record.jws), .bytea(record.sha256), .date(record.nextUpdate),
                .date(record.loadedAt), .text(record.source),
            ])
        return outcome
    }
}
