import Storage

extension PostgresSchema {
    /// v12: what a session proves and when it ends (as SQLite's v12): the login's `amr` on each refresh token, the
    /// DPoP key thumbprint bound to a device key at enrolment, and the instant every session of a user was revoked.
    static let sessionSecurity = Migration(
        version: 12, name: "session_security",
        statements: [
            "ALTER TABLE refresh_tokens ADD COLUMN amr text",
            "ALTER TABLE device_keys ADD COLUMN dpop_jkt text",
            "ALTER TABLE users ADD COLUMN sessions_revoked_at double precision",
        ])
}
