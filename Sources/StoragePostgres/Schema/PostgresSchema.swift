import Storage

/// passkeyd's PostgreSQL schema as data: applied in order at open under an advisory lock, recorded in
/// `schema_migrations`.
///
/// Conventions follow the SQLite schema so both stores hold the same values: times are `double precision`
/// seconds since 2001-01-01 UTC (exact for a `Date`), integers `bigint`, byte strings `bytea`. Each unique
/// constraint is named after the `StorageError.Constraint` it raises, so a violation maps back by name.
/// Never edit a shipped migration: append a new one.
public enum PostgresSchema {
    /// Every migration this binary knows, oldest first (the same versions and names as the SQLite schema).
    public static let migrations: [Migration] = [
        core, deviceKeys, heartbeat, auditLog, dpop, passwordFallback, deviceKeyEnrolment, apisAndProfiles,
        passkeyLifecycle, singleUseTokens, auditNodes, sessionSecurity, fallbackCounterAge, refreshSuccessor,
        commitMarkers, spentAuthSessions, organizations, hostedLogin, metadata, codeDPoPBinding,
        attestationKeyIdentifier,
    ]

    /// v1: users, credentials, auth sessions, refresh tokens, signing keys.
    static let core = Migration(
        version: 1, name: "core",
        statements: [
            """
            CREATE TABLE users (
                id text NOT NULL CONSTRAINT user_id PRIMARY KEY,
                user_handle bytea NOT NULL CONSTRAINT user_handle UNIQUE,
                realm text NOT NULL,
                email text,
                phone_number text,
                username text,
                name text,
                created_at double precision NOT NULL,
                CONSTRAINT user_email UNIQUE (realm, email),
                CONSTRAINT user_phone_number UNIQUE (realm, phone_number),
                CONSTRAINT user_username UNIQUE (realm, username)
            )
            """,
            """
            CREATE TABLE credentials (
                credential_id bytea NOT NULL CONSTRAINT credential_id PRIMARY KEY,
                user_id text NOT NULL REFERENCES users (id) ON DELETE CASCADE,
                public_key bytea NOT NULL,
                algorithm bigint NOT NULL,
                sign_count bigint NOT NULL CHECK (sign_count BETWEEN 0 AND 4294967295),
                uv_initialized boolean NOT NULL,
                backup_eligible boolean NOT NULL,
                backed_up boolean NOT NULL,
                transports text NOT NULL,
                aaguid bytea NOT NULL,
                attestation_format text NOT NULL,
                created_at double precision NOT NULL,
                last_used_at double precision
            )
            """,
            "CREATE INDEX credentials_user ON credentials (user_id)",
            """
            CREATE TABLE auth_sessions (
                id text NOT NULL CONSTRAINT auth_session_id PRIMARY KEY,
                client_id text NOT NULL,
                realm text NOT NULL,
                kind text NOT NULL CHECK (kind IN ('signup', 'login')),
                challenge bytea NOT NULL,
                email text,
                phone_number text,
                username text,
                name text,
                user_handle bytea,
                created_at double precision NOT NULL,
                expires_at double precision NOT NULL
            )
            """,
            "CREATE INDEX auth_sessions_expiry ON auth_sessions (expires_at)",
            """
            CREATE TABLE refresh_tokens (
                token_hash bytea NOT NULL CONSTRAINT refresh_token_hash PRIMARY KEY,
                family_id text NOT NULL,
                client_id text NOT NULL,
                user_id text NOT NULL,
                scope text NOT NULL,
                auth_time double precision NOT NULL,
                created_at double precision NOT NULL,
                absolute_expires_at double precision NOT NULL,
                idle_expires_at double precision NOT NULL,
                rotated_at double precision,
                revoked_at double precision
            )
            """,
            "CREATE INDEX refresh_tokens_family ON refresh_tokens (family_id)",
            "CREATE INDEX refresh_tokens_expiry ON refresh_tokens (absolute_expires_at)",
            """
            CREATE TABLE signing_keys (
                kid text NOT NULL CONSTRAINT signing_key_id PRIMARY KEY,
                algorithm text NOT NULL,
                private_key bytea NOT NULL,
                public_key bytea NOT NULL,
                created_at double precision NOT NULL,
                retired_at double precision
            )
            """,
        ])

    /// v2: app-bound device keys, their challenges, and the security event log.
    static let deviceKeys = Migration(
        version: 2, name: "device_keys",
        statements: [
            """
            CREATE TABLE device_keys (
                key_id text NOT NULL CONSTRAINT device_key_id PRIMARY KEY,
                user_id text NOT NULL,
                device_id text NOT NULL,
                platform text NOT NULL,
                public_key bytea NOT NULL,
                status text NOT NULL CHECK (status IN ('active', 'locked', 'revoked')),
                failed_attempts bigint NOT NULL,
                locked_at double precision,
                created_at double precision NOT NULL,
                last_used_at double precision,
                revoked_at double precision
            )
            """,
            "CREATE INDEX device_keys_user_device ON device_keys (user_id, device_id)",
            """
            CREATE TABLE device_challenges (
                challenge_id text NOT NULL CONSTRAINT device_challenge_id PRIMARY KEY,
                key_id text NOT NULL,
                user_id text NOT NULL,
                document bytea NOT NULL,
                action_hash bytea NOT NULL,
                action bytea NOT NULL,
                created_at double precision NOT NULL,
                expires_at double precision NOT NULL,
                consumed_at double precision
            )
            """,
            "CREATE INDEX device_challenges_expiry ON device_challenges (expires_at)",
            """
            CREATE TABLE security_events (
                seq bigint NOT NULL PRIMARY KEY,
                occurred_at double precision NOT NULL,
                device_time double precision,
                kind text NOT NULL,
                user_id text,
                key_id text,
                device_id text,
                client_id text,
                action_hash bytea,
                outcome text NOT NULL,
                reason_code text,
                attempts bigint,
                detail bytea
            )
            """,
            // The last assigned seq, one row. Taking the next seq locks this row until commit, so seqs are given
            // in commit order with no gap (a rolled-back append gives its number back): a reader paging with
            // `seq > cursor` never skips an event that commits later with a smaller number, which a SEQUENCE
            // would allow across connections. Appends serialise on this row, as they do in SQLite's one writer.
            """
            CREATE TABLE security_event_counter (
                id integer NOT NULL PRIMARY KEY CHECK (id = 1),
                last_seq bigint NOT NULL
            )
            """,
            "INSERT INTO security_event_counter (id, last_seq) VALUES (1, 0)",
        ])

    /// v3: the readiness heartbeat, one row that `/readyz` overwrites.
    static let heartbeat = Migration(
        version: 3, name: "heartbeat",
        statements: [
            """
            CREATE TABLE heartbeat (
                id integer NOT NULL PRIMARY KEY CHECK (id = 1),
                beat_at double precision NOT NULL
            )
            """
        ])

    /// v4: the probative audit log (docs/audit.md). Security events gain the fields of an audit entry and take
    /// their seq from a sequence; each append also queues the event in `audit_pending`, which the sequencer (the node holding the advisory lock) empties
    /// into `audit_log`, the append-only RFC 6962 leaves, updating `audit_tree` in the same transaction. Triggers
    /// refuse any UPDATE, DELETE or TRUNCATE of the log and of its checkpoints.
    static let auditLog = Migration(
        version: 4, name: "audit_log",
        statements: [
            """
            ALTER TABLE security_events ADD COLUMN credential_id bytea, ADD COLUMN family_id text,
                ADD COLUMN request_id text, ADD COLUMN client_address text, ADD COLUMN node_id text
            """,
            // Event seqs from a SEQUENCE from now on, no longer from the `security_event_counter` row: that row
            // serialized every appending transaction until commit, and logins now append. The audit log gives the
            // gap-free, commit-ordered reading (its sequencer orders whatever committed).
            "CREATE SEQUENCE security_event_seq",
            "SELECT setval('security_event_seq', (SELECT last_seq + 1 FROM security_event_counter), false)",
            "CREATE TABLE audit_pending (event_seq bigint NOT NULL PRIMARY KEY)",
            // Events recorded before this migration enter the log too.
            "INSERT INTO audit_pending (event_seq) SELECT seq FROM security_events",
            """
            CREATE TABLE audit_log (
                leaf_index bigint NOT NULL PRIMARY KEY CHECK (leaf_index >= 0),
                entry bytea NOT NULL,
                leaf_hash bytea NOT NULL
            )
            """,
            """
            CREATE TABLE audit_tree (
                id integer NOT NULL PRIMARY KEY CHECK (id = 1),
                size bigint NOT NULL,
                frontier bytea NOT NULL
            )
            """,
            "INSERT INTO audit_tree (id, size, frontier) VALUES (1, 0, ''::bytea)",
            """
            CREATE TABLE audit_checkpoints (
                tree_size bigint NOT NULL PRIMARY KEY,
                note text NOT NULL,
                signed_at double precision NOT NULL
            )
            """,
            """
            CREATE FUNCTION audit_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
            BEGIN
                RAISE EXCEPTION '% is append-only', TG_TABLE_NAME;
            END
            $$
            """,
            """
            CREATE TRIGGER audit_log_append_only BEFORE UPDATE OR DELETE ON audit_log
            FOR EACH ROW EXECUTE FUNCTION audit_append_only()
            """,
            """
            CREATE TRIGGER audit_log_no_truncate BEFORE TRUNCATE ON audit_log
            FOR EACH STATEMENT EXECUTE FUNCTION audit_append_only()
            """,
            """
            CREATE TRIGGER audit_checkpoints_append_only BEFORE UPDATE OR DELETE ON audit_checkpoints
            FOR EACH ROW EXECUTE FUNCTION audit_append_only()
            """,
            """
            CREATE TRIGGER audit_checkpoints_no_truncate BEFORE TRUNCATE ON audit_checkpoints
            FOR EACH STATEMENT EXECUTE FUNCTION audit_append_only()
            """,
        ])

    /// v5: DPoP (RFC 9449): the proofs seen, so that a replay is refused on any node (§11.1), and the key a
    /// refresh-token family is bound to (§5).
    static let dpop = Migration(
        version: 5, name: "dpop",
        statements: [
            """
            CREATE TABLE dpop_proofs (
                thumbprint text NOT NULL,
                jti text NOT NULL,
                expires_at double precision NOT NULL,
                PRIMARY KEY (thumbprint, jti)
            )
            """,
            "CREATE INDEX dpop_proofs_expiry ON dpop_proofs (expires_at)",
            "ALTER TABLE refresh_tokens ADD COLUMN dpop_jkt text",
        ])

    /// v6: the SRP-6a password fallback (as SQLite's v6): verifiers, pending SRP logins, named counters, server
    /// secrets.
    static let passwordFallback = Migration(
        version: 6, name: "password_fallback",
        statements: [
            """
            CREATE TABLE password_verifiers (
                user_id text NOT NULL PRIMARY KEY,
                realm text NOT NULL,
                identity text NOT NULL,
                salt bytea NOT NULL,
                verifier bytea NOT NULL,
                updated_at double precision NOT NULL,
                CONSTRAINT password_identity UNIQUE (realm, identity)
            )
            """,
            """
            CREATE TABLE srp_sessions (
                id text NOT NULL CONSTRAINT srp_session_id PRIMARY KEY,
                client_id text NOT NULL,
                realm text NOT NULL,
                identity text NOT NULL,
                user_id text,
                salt bytea NOT NULL,
                verifier bytea NOT NULL,
                client_public bytea NOT NULL,
                server_secret bytea NOT NULL,
                server_public bytea NOT NULL,
                address text NOT NULL,
                created_at double precision NOT NULL,
                expires_at double precision NOT NULL
            )
            """,
            "CREATE INDEX srp_sessions_expiry ON srp_sessions (expires_at)",
            """
            CREATE TABLE fallback_counters (
                counter_key text NOT NULL PRIMARY KEY,
                count bigint NOT NULL,
                last_at double precision NOT NULL
            )
            """,
            """
            CREATE TABLE server_secrets (
                name text NOT NULL PRIMARY KEY,
                value bytea NOT NULL
            )
            """,
        ])
}
