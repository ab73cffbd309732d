import Storage

extension SQLiteSchema {
    /// v19: FIDO Metadata (issue 39). `metadata_blobs`: the verified MDS3 BLOB every node reads, by its serial (`no`);
    /// only the newest row is kept (`storeMetadataBLOB` deletes the older ones in the same write), and the JWS is
    /// kept as given so that each node verifies it again. `credentials_aaguid`: the credentials of one authenticator
    /// model, in credential-id order (`passkeyd passkeys list --aaguid`).
    static let metadata = Migration(
        version: 19, name: "metadata",
        statements: [
            """
            CREATE TABLE metadata_blobs (
                serial INTEGER PRIMARY KEY NOT NULL,
                jws TEXT NOT NULL,
                sha256 BLOB NOT NULL,
                next_update REAL NOT NULL,
                loaded_at REAL NOT NULL,
                source TEXT NOT NULL
            ) STRICT
            """,
            "CREATE INDEX credentials_aaguid ON credentials (aaguid, credential_id)",
        ])
}
