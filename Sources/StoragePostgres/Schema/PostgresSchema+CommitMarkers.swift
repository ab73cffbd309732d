import Storage

extension PostgresSchema {
    /// v15: the commit markers (`CommitMarker`). Each write transaction inserts one random marker in its BEGIN round
    /// trip, so that whether a COMMIT whose answer was lost took effect can be read from the data itself after a
    /// crash or a failover, where `txid_status` cannot tell. PostgreSQL only (SQLite's v15 is empty: a SQLite COMMIT
    /// is never in doubt). `created_at` is the database's clock, written and purged by it: a node's clock (or a
    /// test's fixed one) never decides which marker is old enough to go.
    static let commitMarkers = Migration(
        version: 15, name: "commit_markers",
        statements: [
            """
            CREATE TABLE commit_markers (
                marker bytea NOT NULL PRIMARY KEY,
                created_at timestamptz NOT NULL DEFAULT now()
            )
            """,
            "CREATE INDEX commit_markers_age ON commit_markers (created_at)",
        ])
}
