import Storage

extension SQLiteSchema {
    /// v14: `refresh_tokens.successor_hash`, the token a rotated token was exchanged for (the newest, when a retry
    /// within `tokens.refresh_token_reuse_grace_seconds` issued another), so that presenting a rotated token whose
    /// successor was never presented can be told from reuse (`RefreshTokenPolicy`); NULL for tokens rotated before
    /// this version (their presentation stays reuse).
    static let refreshSuccessor = Migration(
        version: 14, name: "refresh_successor",
        statements: ["ALTER TABLE refresh_tokens ADD COLUMN successor_hash BLOB"])
}
