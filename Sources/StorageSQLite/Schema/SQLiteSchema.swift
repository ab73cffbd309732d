import Storage

/// passkeyd's SQLite schema as data: applied in order at open, recorded in `schema_migrations`.
///
/// Conventions: STRICT tables; times are REAL seconds since 2001-01-01 UTC (`Date.timeIntervalSinceReferenceDate`,
/// which round-trips a `Date` exactly); booleans are INTEGER 0/1; byte strings are BLOB. Never edit a shipped
/// migration: append a new one.
public enum SQLiteSchema {
    /// Every migration this binary knows, oldest first.
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

    /// v4: the probative audit log (docs/audit.md). Security events gain the fields of an audit entry. The one
    /// writer gives seqs in commit order (AUTOINCREMENT, under the write lock until commit, also across processes),
    /// so the queue is the events after `audit_tree.last_event_seq`: an append costs no row beyond the event's own.
    /// The sequencer moves them into `audit_log`, the append-only RFC 6962 leaves, and advances `audit_tree` in the
    /// same transaction. Triggers refuse any UPDATE or DELETE of the log and of its checkpoints; housekeeping never
    /// purges them.
    static let auditLog = Migration(
        version: 4, name: "audit_log",
        statements: [
            "ALTER TABLE security_events ADD COLUMN credential_id BLOB",
            "ALTER TABLE security_events ADD COLUMN family_id TEXT",
            "ALTER TABLE security_events ADD COLUMN request_id TEXT",
            "ALTER TABLE security_events ADD COLUMN client_address TEXT",
            "ALTER TABLE security_events ADD COLUMN node_id TEXT",
            """
            CREATE TABLE audit_log (
                leaf_index INTEGER PRIMARY KEY NOT NULL CHECK (leaf_index >= 0),
                entry BLOB NOT NULL,
                leaf_hash BLOB NOT NULL
            ) STRICT
            """,
            """
            CREATE TABLE audit_tree (
                id INTEGER PRIMARY KEY NOT NULL CHECK (id = 1),
                size INTEGER NOT NULL,
                frontier BLOB NOT NULL,
                last_event_seq INTEGER NOT NULL
            ) STRICT
            """,
            // Events recorded before this migration enter the log too (from seq 1).
            "INSERT INTO audit_tree (id, size, frontier, last_event_seq) VALUES (1, 0, x'', 0)",
            """
            CREATE TABLE audit_checkpoints (
                tree_size INTEGER PRIMARY KEY NOT NULL,
                note TEXT NOT NULL,
                signed_at REAL NOT NULL
            ) STRICT
            """,
            """
            CREATE TRIGGER audit_log_no_update BEFORE UPDATE ON audit_log
            BEGIN SELECT RAISE(ABORT, 'audit_log is append-only'); END
            """,
            """
            CREATE TRIGGER audit_log_no_delete BEFORE DELETE ON audit_log
            BEGIN SELECT RAISE(ABORT, 'audit_log is append-only'); END
            """,
            """
            CREATE TRIGGER audit_checkpoints_no_update BEFORE UPDATE ON audit_checkpoints
            BEGIN SELECT RAISE(ABORT, 'audit_checkpoints is append-only'); END
            """,
            """
            CREATE TRIGGER audit_checkpoints_no_delete BEFORE DELETE ON audit_checkpoints
            BEGIN SELECT RAISE(ABORT, 'audit_checkpoints is append-only'); END
            """,
        ])

    /// v5: DPoP (RFC 9449): the proofs seen, so that a replay is refused on any node (§11.1), and the key a
    /// refresh-token family is bound to (§5).
    static let dpop = Migration(
        version: 5, name: "dpop",
        statements: [
            """
            CREATE TABLE dpop_proofs (
                thumbprint TEXT NOT NULL,
                jti TEXT NOT NULL,
                expires_at REAL NOT NULL,
                PRIMARY KEY (thumbprint, jti)
            ) STRICT
            """,
            "CREATE INDEX dpop_proofs_expiry ON dpop_proofs (expires_at)",
            "ALTER TABLE refresh_tokens ADD COLUMN dpop_jkt TEXT",
        ])

    /// v6: the SRP-6a password fallback: one verifier per user (identity unique per realm), pending SRP logins
    /// (b is stored so that any node can finish one), named counters (failed logins per identity and per address,
    /// biometric failures per device key, the biometry-change mark) and server secrets shared by every node.
    static let passwordFallback = Migration(
        version: 6, name: "password_fallback",
        statements: [
            """
            CREATE TABLE password_verifiers (
                user_id TEXT PRIMARY KEY NOT NULL,
                realm TEXT NOT NULL,
                identity TEXT NOT NULL,
                salt BLOB NOT NULL,
                verifier BLOB NOT NULL,
                updated_at REAL NOT NULL,
                UNIQUE (realm, identity)
            ) STRICT
            """,
            """
            CREATE TABLE srp_sessions (
                id TEXT PRIMARY KEY NOT NULL,
                client_id TEXT NOT NULL,
                realm TEXT NOT NULL,
                identity TEXT NOT NULL,
                user_id TEXT,
                salt BLOB NOT NULL,
                verifier BLOB NOT NULL,
                client_public BLOB NOT NULL,
                server_secret BLOB NOT NULL,
                server_public BLOB NOT NULL,
                address TEXT NOT NULL,
                created_at REAL NOT NULL,
                expires_at REAL NOT NULL
            ) STRICT
            """,
            "CREATE INDEX srp_sessions_expiry ON srp_sessions (expires_at)",
            """
            CREATE TABLE fallback_counters (
                counter_key TEXT PRIMARY KEY NOT NULL,
                count INTEGER NOT NULL,
                last_at REAL NOT NULL
            ) STRICT
            """,
            """
            CREATE TABLE server_secrets (
                name TEXT PRIMARY KEY NOT NULL,
                value BLOB NOT NULL
            ) STRICT
            """,
        ])
}
