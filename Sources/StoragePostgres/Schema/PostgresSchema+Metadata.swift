import Storage

extension PostgresSchema {
    /// v19: FIDO Metadata (as SQLite's v19): `metadata_blobs`, the newest verified MDS3 BLOB by its serial, and
    /// `credentials_aaguid`, the credentials of one authenticator model in credential-id order.
    static let metadata = Migration(
        version: 19, name: "metadata",
        statements: [
            """
            CREATE TABLE metadata_blobs (
                serial bigint NOT NULL PRIMARY KEY,
                jws text NOT NULL,
                sha256 bytea NOT NULL,
                next_update double precision NOT NULL,
                loaded_at double precision NOT NULL,
                source text NOT NULL
            )
            """,
            "CREATE INDEX credentials_aaguid ON credentials (aaguid, credential_id)",
        ])
}
