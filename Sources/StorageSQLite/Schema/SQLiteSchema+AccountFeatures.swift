import Storage

/// v7–v11: device-key enrolment, APIs and profiles, the passkey lifecycle, single-use tokens, the audit tree's nodes.
extension SQLiteSchema {
    /// v7: device-key enrolment step-up and platform attestation: single-use enrolment nonces, what a verified
    /// attestation said about each key, and the per-user event history `GET /device-keys` shows.
    static let deviceKeyEnrolment = Migration(
        version: 7, name: "device_key_enrolment",
        statements: [
            """
            CREATE TABLE device_enrolment_nonces (
                nonce TEXT PRIMARY KEY NOT NULL,
                user_id TEXT NOT NULL,
                client_id TEXT NOT NULL,
                created_at REAL NOT NULL,
                expires_at REAL NOT NULL
            ) STRICT
            """,
            "CREATE INDEX device_enrolment_nonces_expiry ON device_enrolment_nonces (expires_at)",
            "ALTER TABLE device_keys ADD COLUMN attestation_platform TEXT",
            "ALTER TABLE device_keys ADD COLUMN attestation_level TEXT",
            "ALTER TABLE device_keys ADD COLUMN attestation_verified_at REAL",
            "ALTER TABLE device_keys ADD COLUMN attestation_boot_state TEXT",
            "CREATE INDEX security_events_user ON security_events (user_id, seq)",
        ])

    /// v8: APIs and profiles (issue #20): the profile claims a user gives at sign-up (on the user, and on the sign-up
    /// session until the ceremony completes), and the API a refresh-token family was granted for.
    static let apisAndProfiles = Migration(
        version: 8, name: "apis_and_profiles",
        statements: [
            "ALTER TABLE users ADD COLUMN given_name TEXT",
            "ALTER TABLE users ADD COLUMN family_name TEXT",
            "ALTER TABLE users ADD COLUMN nickname TEXT",
            "ALTER TABLE users ADD COLUMN picture TEXT",
            "ALTER TABLE users ADD COLUMN user_metadata TEXT",
            "ALTER TABLE auth_sessions ADD COLUMN given_name TEXT",
            "ALTER TABLE auth_sessions ADD COLUMN family_name TEXT",
            "ALTER TABLE auth_sessions ADD COLUMN nickname TEXT",
            "ALTER TABLE auth_sessions ADD COLUMN picture TEXT",
            "ALTER TABLE auth_sessions ADD COLUMN user_metadata TEXT",
            "ALTER TABLE refresh_tokens ADD COLUMN audience TEXT",
        ])

    /// v9: the passkey lifecycle (issue #21): a user-set name per credential, and recovery codes (slow hashes of
    /// one set per user, replaced as a whole).
    static let passkeyLifecycle = Migration(
        version: 9, name: "passkey_lifecycle",
        statements: [
            "ALTER TABLE credentials ADD COLUMN name TEXT",
            """
            CREATE TABLE recovery_codes (
                user_id TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
                code_hash BLOB NOT NULL,
                salt BLOB NOT NULL,
                created_at REAL NOT NULL,
                PRIMARY KEY (user_id, code_hash)
            ) STRICT
            """,
            "CREATE INDEX refresh_tokens_user ON refresh_tokens (user_id)",
        ])

    /// v10: single-use access tokens (the recovery token enrols one passkey): the `jti` of each spent token until
    /// its expiry, when housekeeping purges it.
    static let singleUseTokens = Migration(
        version: 10, name: "single_use_tokens",
        statements: [
            """
            CREATE TABLE spent_tokens (
                jti TEXT PRIMARY KEY NOT NULL,
                expires_at REAL NOT NULL
            ) STRICT
            """,
            "CREATE INDEX spent_tokens_expiry ON spent_tokens (expires_at)",
        ])

    /// v11: the audit tree's node hashes (docs/audit.md): the hash of every complete, aligned subtree of level 1 and
    /// more, stored by the sequencer with the leaf that completes it, so that a proof reads O(log n) hashes instead
    /// of every leaf. `audit_tree.nodes_size` counts the leaves whose nodes are stored: a log appended before this
    /// migration has none, and the backfill computes them up to the tree's size. Append-only as the log.
    static let auditNodes = Migration(
        version: 11, name: "audit_nodes",
        statements: [
            """
            CREATE TABLE audit_nodes (
                level INTEGER NOT NULL CHECK (level >= 1),
                idx INTEGER NOT NULL CHECK (idx >= 0),
                hash BLOB NOT NULL,
                PRIMARY KEY (level, idx)
            ) STRICT, WITHOUT ROWID
            """,
            "ALTER TABLE audit_tree ADD COLUMN nodes_size INTEGER NOT NULL DEFAULT 0",
            """
            CREATE TRIGGER audit_nodes_no_update BEFORE UPDATE ON audit_nodes
            BEGIN SELECT RAISE(ABORT, 'audit_nodes is append-only'); END
            """,
            """
            CREATE TRIGGER audit_nodes_no_delete BEFORE DELETE ON audit_nodes
            BEGIN SELECT RAISE(ABORT, 'audit_nodes is append-only'); END
            """,
        ])
}
