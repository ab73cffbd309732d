import Storage

extension PostgresSchema {
    /// v16: the spent sealed auth sessions (as SQLite's v16): the id of each auth session a token grant completed
    /// or refused, recorded in that grant's write (one winner among concurrent presentations, on any node), until
    /// the session's expiry, when housekeeping purges it.
    static let spentAuthSessions = Migration(
        version: 16, name: "spent_auth_sessions",
        statements: [
            """
            CREATE TABLE spent_auth_sessions (
                id text NOT NULL PRIMARY KEY,
                expires_at double precision NOT NULL
            )
            """,
            "CREATE INDEX spent_auth_sessions_expiry ON spent_auth_sessions (expires_at)",
        ])
}
