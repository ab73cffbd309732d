import Storage

extension PostgresSchema {
    /// v18: the hosted login's sessions and authorization codes (as SQLite's v18): only hashes of the cookie value
    /// and of the code are stored; a code is redeemed once by the compare-and-set on `redeemed_at IS NULL`.
    static let hostedLogin = Migration(
        version: 18, name: "hosted_login",
        statements: [
            """
            CREATE TABLE login_sessions (
                id_hash bytea NOT NULL PRIMARY KEY,
                user_id text NOT NULL,
                realm text NOT NULL,
                auth_time double precision NOT NULL,
                amr text NOT NULL,
                created_at double precision NOT NULL,
                expires_at double precision NOT NULL,
                ended_at double precision
            )
            """,
            "CREATE INDEX login_sessions_user ON login_sessions (user_id)",
            "CREATE INDEX login_sessions_expiry ON login_sessions (expires_at)",
            """
            CREATE TABLE authorization_codes (
                code_hash bytea NOT NULL PRIMARY KEY,
                client_id text NOT NULL,
                redirect_uri text NOT NULL,
                code_challenge text NOT NULL,
                user_id text NOT NULL,
                session_hash bytea NOT NULL,
                realm text NOT NULL,
                scope text NOT NULL,
                audience text,
                organization_id text,
                nonce text,
                auth_time double precision NOT NULL,
                amr text NOT NULL,
                created_at double precision NOT NULL,
                expires_at double precision NOT NULL,
                redeemed_at double precision,
                refresh_family text
            )
            """,
            "CREATE INDEX authorization_codes_user ON authorization_codes (user_id)",
            "CREATE INDEX authorization_codes_expiry ON authorization_codes (expires_at)",
        ])
}
