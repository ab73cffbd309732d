import Storage

/// v7–v11: device-key enrolment, APIs and profiles, the passkey lifecycle, single-use tokens, the audit tree's nodes.
extension PostgresSchema {
    /// v7: device-key enrolment step-up and platform attestation: single-use enrolment nonces, what a verified
    /// attestation said about each key, and the per-user event history `GET /device-keys` shows.
    static let deviceKeyEnrolment = Migration(
        version: 7, name: "device_key_enrolment",
        statements: [
            """
            CREATE TABLE device_enrolment_nonces (
                nonce text NOT NULL CONSTRAINT device_enrolment_nonce PRIMARY KEY,
                user_id text NOT NULL,
                client_id text NOT NULL,
                created_at double precision NOT NULL,
                expires_at double precision NOT NULL
            )
            """,
            "CREATE INDEX device_enrolment_nonces_expiry ON device_enrolment_nonces (expires_at)",
            """
            ALTER TABLE device_keys ADD COLUMN attestation_platform text, ADD COLUMN attestation_level text,
                ADD COLUMN attestation_verified_at double precision, ADD COLUMN attestation_boot_state text
            """,
            "CREATE INDEX security_events_user ON security_events (user_id, seq)",
        ])

    /// v8: APIs and profiles (issue #20): the profile claims a user gives at sign-up (on the user, and on the sign-up
    /// session until the ceremony completes), and the API a refresh-token family was granted for.
    static let apisAndProfiles = Migration(
        version: 8, name: "apis_and_profiles",
        statements: [
            """
            ALTER TABLE users ADD COLUMN given_name text, ADD COLUMN family_name text, ADD COLUMN nickname text,
                ADD COLUMN picture text, ADD COLUMN user_metadata text
            """,
            """
            ALTER TABLE auth_sessions ADD COLUMN given_name text, ADD COLUMN family_name text, ADD COLUMN nickname text,
                ADD COLUMN picture text, ADD COLUMN user_metadata text
            """,
            "ALTER TABLE refresh_tokens ADD COLUMN audience text",
        ])

    /// v9: the passkey lifecycle (issue #21, as SQLite's v9): a user-set name per credential, and recovery codes
    /// (slow hashes of one set per user, replaced as a whole).
    static let passkeyLifecycle = Migration(
        version: 9, name: "passkey_lifecycle",
        statements: [
            "ALTER TABLE credentials ADD COLUMN name text",
            """
            CREATE TABLE recovery_codes (
                user_id text NOT NULL REFERENCES users (id) ON DELETE CASCADE,
                code_hash bytea NOT NULL,
                salt bytea NOT NULL,
                created_at double precision NOT NULL,
                PRIMARY KEY (user_id, code_hash)
            )
            """,
            "CREATE INDEX refresh_tokens_user ON refresh_tokens (user_id)",
        ])

    /// v10: single-use access tokens (as SQLite's v10): the `jti` of each spent token until its expiry, when
    /// housekeeping purges it.
    static let singleUseTokens = Migration(
        version: 10, name: "single_use_tokens",
        statements: [
            """
            CREATE TABLE spent_tokens (
                jti text NOT NULL PRIMARY KEY,
                expires_at double precision NOT NULL
            )
            """,
            "CREATE INDEX spent_tokens_expiry ON spent_tokens (expires_at)",
        ])

    /// v11: the audit tree's node hashes (docs/audit.md, as SQLite's v11): the hash of every complete, aligned
    /// subtree of level 1 and more, stored by the sequencer with the leaf that completes it, so that a proof reads
    /// O(log n) hashes instead of every leaf. `audit_tree.nodes_size` counts the leaves whose nodes are stored: a
    /// log appended before this migration has none, and the backfill computes them up to the tree's size.
    /// Append-only as the log.
    static let auditNodes = Migration(
        version: 11, name: "audit_nodes",
        statements: [
            """
            CREATE TABLE audit_nodes (
                level bigint NOT NULL CHECK (level >= 1),
                idx bigint NOT NULL CHECK (idx >= 0),
                hash bytea NOT NULL,
                PRIMARY KEY (level, idx)
            )
            """,
            "ALTER TABLE audit_tree ADD COLUMN nodes_size bigint NOT NULL DEFAULT 0",
            """
            CREATE TRIGGER audit_nodes_append_only BEFORE UPDATE OR DELETE ON audit_nodes
            FOR EACH ROW EXECUTE FUNCTION audit_append_only()
            """,
            """
            CREATE TRIGGER audit_nodes_no_truncate BEFORE TRUNCATE ON audit_nodes
            FOR EACH STATEMENT EXECUTE FUNCTION audit_append_only()
            """,
        ])
}
