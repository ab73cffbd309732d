import Storage

extension SQLiteSchema {
    /// v18: the hosted login (issue 38). `login_sessions`: a login session by the SHA-256 of its cookie value (the
    /// value itself is never stored), live while `ended_at` is NULL and before `expires_at`. `authorization_codes`: a
    /// code by the SHA-256 of the code, single use through the compare-and-set on `redeemed_at IS NULL`;
    /// `refresh_family` names the family its redemption issued so that a second presentation can revoke it. Both
    /// purged after `expires_at`; a user's go with the user (`deleteUser`).
    static let hostedLogin = Migration(
        version: 18, name: "hosted_login",
        statements: [
            """
            CREATE TABLE login_sessions (
                id_hash BLOB PRIMARY KEY NOT NULL,
                user_id TEXT NOT NULL,
                realm TEXT NOT NULL,
                auth_time REAL NOT NULL,
                amr TEXT NOT NULL,
                created_at REAL NOT NULL,
                expires_at REAL NOT NULL,
                ended_at REAL
            ) STRICT
            """,
            "CREATE INDEX login_sessions_user ON login_sessions (user_id)",
            "CREATE INDEX login_sessions_expiry ON login_sessions (expires_at)",
            """
            CREATE TABLE authorization_codes (
                code_hash BLOB PRIMARY KEY NOT NULL,
                client_id TEXT NOT NULL,
                redirect_uri TEXT NOT NULL,
                code_challenge TEXT NOT NULL,
                user_id TEXT NOT NULL,
                session_hash BLOB NOT NULL,
                realm TEXT NOT NULL,
                scope TEXT NOT NULL,
                audience TEXT,
                organization_id TEXT,
                nonce TEXT,
                auth_time REAL NOT NULL,
                amr TEXT NOT NULL,
                created_at REAL NOT NULL,
                expires_at REAL NOT NULL,
                redeemed_at REAL,
                refresh_family TEXT
            ) STRICT
            """,
            "CREATE INDEX authorization_codes_user ON authorization_codes (user_id)",
            "CREATE INDEX authorization_codes_expiry ON authorization_codes (expires_at)",
        ])
}
