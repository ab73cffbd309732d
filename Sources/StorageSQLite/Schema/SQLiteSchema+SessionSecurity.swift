import Storage

extension SQLiteSchema {
    /// v12: what a session proves and when it ends (docs/api.md, "Sessions"):
    /// - `refresh_tokens.amr`: the RFC 8176 methods of the login that started the family, carried across rotations
    ///   so a refreshed token says how its user logged in (a password login stays `pwd`); NULL for families from
    ///   before this version (the refresh grant then treats the method as unknown);
    /// - `device_keys.dpop_jkt`: the RFC 7638 thumbprint of the DPoP key of the token that enrolled the key, the
    ///   device's proof for what only the device may do (docs/device-keys.md, "Device proof");
    /// - `users.sessions_revoked_at`: when every session of the user was revoked (recovery, an operator): access
    ///   tokens minted before it are refused by passkeyd's own endpoints.
    static let sessionSecurity = Migration(
        version: 12, name: "session_security",
        statements: [
            "ALTER TABLE refresh_tokens ADD COLUMN amr TEXT",
            "ALTER TABLE device_keys ADD COLUMN dpop_jkt TEXT",
            "ALTER TABLE users ADD COLUMN sessions_revoked_at REAL",
        ])
}
