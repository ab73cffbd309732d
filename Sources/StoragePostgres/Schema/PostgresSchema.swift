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
    public static let migrations: [Migration] = [core, deviceKeys, heartbeat, deviceKeyEnrolment]

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

    /// v4: device-key enrolment step-up and platform attestation: single-use enrolment nonces, what a verified
    /// attestation said about each key, and the per-user event history `GET /device-keys` shows.
    static let deviceKeyEnrolment = Migration(
        version: 4, name: "device_key_enrolment",
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
}
