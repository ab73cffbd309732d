import Storage

/// passkeyd's SQLite schema as data: applied in order at open, recorded in `schema_migrations`.
///
/// Conventions: STRICT tables; times are REAL seconds since 2001-01-01 UTC (`Date.timeIntervalSinceReferenceDate`,
/// which round-trips a `Date` exactly); booleans are INTEGER 0/1; byte strings are BLOB. Never edit a shipped
/// migration: append a new one.
public enum SQLiteSchema {
    /// Every migration this binary knows, oldest first.
    public static let migrations: [Migration] = [core, deviceKeys, heartbeat, deviceKeyEnrolment]

    /// v1: users, credentials, auth sessions, refresh tokens, signing keys.
    static let core = Migration(
        version: 1, name: "core",
        statements: [
            """
            CREATE TABLE users (
                id TEXT PRIMARY KEY NOT NULL,
                user_handle BLOB NOT NULL UNIQUE,
                realm TEXT NOT NULL,
                email TEXT,
                phone_number TEXT,
                username TEXT,
                name TEXT,
                created_at REAL NOT NULL,
                UNIQUE (realm, email),
                UNIQUE (realm, phone_number),
                UNIQUE (realm, username)
            ) STRICT
            """,
            """
            CREATE TABLE credentials (
                credential_id BLOB PRIMARY KEY NOT NULL,
                user_id TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
                public_key BLOB NOT NULL,
                algorithm INTEGER NOT NULL,
                sign_count INTEGER NOT NULL CHECK (sign_count BETWEEN 0 AND 4294967295),
                uv_initialized INTEGER NOT NULL,
                backup_eligible INTEGER NOT NULL,
                backed_up INTEGER NOT NULL,
                transports TEXT NOT NULL,
                aaguid BLOB NOT NULL,
                attestation_format TEXT NOT NULL,
                created_at REAL NOT NULL,
                last_used_at REAL
            ) STRICT
            """,
            "CREATE INDEX credentials_user ON credentials (user_id)",
            """
            CREATE TABLE auth_sessions (
                id TEXT PRIMARY KEY NOT NULL,
                client_id TEXT NOT NULL,
                realm TEXT NOT NULL,
                kind TEXT NOT NULL CHECK (kind IN ('signup', 'login')),
                challenge BLOB NOT NULL,
                email TEXT,
                phone_number TEXT,
                username TEXT,
                name TEXT,
                user_handle BLOB,
                created_at REAL NOT NULL,
                expires_at REAL NOT NULL
            ) STRICT
            """,
            "CREATE INDEX auth_sessions_expiry ON auth_sessions (expires_at)",
            """
            CREATE TABLE refresh_tokens (
                token_hash BLOB PRIMARY KEY NOT NULL,
                family_id TEXT NOT NULL,
                client_id TEXT NOT NULL,
                user_id TEXT NOT NULL,
                scope TEXT NOT NULL,
                auth_time REAL NOT NULL,
                created_at REAL NOT NULL,
                absolute_expires_at REAL NOT NULL,
                idle_expires_at REAL NOT NULL,
                rotated_at REAL,
                revoked_at REAL
            ) STRICT
            """,
            "CREATE INDEX refresh_tokens_family ON refresh_tokens (family_id)",
            "CREATE INDEX refresh_tokens_expiry ON refresh_tokens (absolute_expires_at)",
            """
            CREATE TABLE signing_keys (
                kid TEXT PRIMARY KEY NOT NULL,
                algorithm TEXT NOT NULL,
                private_key BLOB NOT NULL,
                public_key BLOB NOT NULL,
                created_at REAL NOT NULL,
                retired_at REAL
            ) STRICT
            """,
        ])

    /// v2: app-bound device keys, their challenges, and the security event log.
    static let deviceKeys = Migration(
        version: 2, name: "device_keys",
        statements: [
            """
            CREATE TABLE device_keys (
                key_id TEXT PRIMARY KEY NOT NULL,
                user_id TEXT NOT NULL,
                device_id TEXT NOT NULL,
                platform TEXT NOT NULL,
                public_key BLOB NOT NULL,
                status TEXT NOT NULL CHECK (status IN ('active', 'locked', 'revoked')),
                failed_attempts INTEGER NOT NULL,
                locked_at REAL,
                created_at REAL NOT NULL,
                last_used_at REAL,
                revoked_at REAL
            ) STRICT
            """,
            "CREATE INDEX device_keys_user_device ON device_keys (user_id, device_id)",
            """
            CREATE TABLE device_challenges (
                challenge_id TEXT PRIMARY KEY NOT NULL,
                key_id TEXT NOT NULL,
                user_id TEXT NOT NULL,
                document BLOB NOT NULL,
                action_hash BLOB NOT NULL,
                action BLOB NOT NULL,
                created_at REAL NOT NULL,
                expires_at REAL NOT NULL,
                consumed_at REAL
            ) STRICT
            """,
            "CREATE INDEX device_challenges_expiry ON device_challenges (expires_at)",
            // AUTOINCREMENT: a seq is never reused, even after the newest events are deleted.
            """
            CREATE TABLE security_events (
                seq INTEGER PRIMARY KEY AUTOINCREMENT,
                occurred_at REAL NOT NULL,
                device_time REAL,
                kind TEXT NOT NULL,
                user_id TEXT,
                key_id TEXT,
                device_id TEXT,
                client_id TEXT,
                action_hash BLOB,
                outcome TEXT NOT NULL,
                reason_code TEXT,
                attempts INTEGER,
                detail BLOB
            ) STRICT
            """,
        ])

    /// v3: the readiness heartbeat, one row that `/readyz` overwrites (at most once a second) to prove the
    /// database still accepts writes.
    static let heartbeat = Migration(
        version: 3, name: "heartbeat",
        statements: [
            """
            CREATE TABLE heartbeat (
                id INTEGER PRIMARY KEY NOT NULL CHECK (id = 1),
                beat_at REAL NOT NULL
            ) STRICT
            """
        ])

    /// v4: device-key enrolment step-up and platform attestation: single-use enrolment nonces, what a verified
    /// attestation said about each key, and the per-user event history `GET /device-keys` shows.
    static let deviceKeyEnrolment = Migration(
        version: 4, name: "device_key_enrolment",
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
}
