import Storage

extension SQLiteSchema {
    /// v16: the spent sealed auth sessions. `/passkey/challenge` and `/passkey/register` store nothing (their
    /// `auth_session` is sealed, `SealedAuthSession`); the token grant records the session's id here in the write
    /// that completes or refuses the ceremony, so that a session is used once. Kept until the session's expiry,
    /// when housekeeping purges it.
    static let spentAuthSessions = Migration(
        version: 16, name: "spent_auth_sessions",
        statements: [
            """
            CREATE TABLE spent_auth_sessions (
                id TEXT PRIMARY KEY NOT NULL,
                expires_at REAL NOT NULL
            ) STRICT
            """,
            "CREATE INDEX spent_auth_sessions_expiry ON spent_auth_sessions (expires_at)",
        ])
}
