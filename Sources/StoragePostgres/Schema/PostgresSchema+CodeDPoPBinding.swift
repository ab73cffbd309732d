import Storage

extension PostgresSchema {
    /// v20: `authorization_codes.dpop_jkt` (as SQLite's v20), the authorization request's `dpop_jkt` (RFC 9449 §10).
    static let codeDPoPBinding = Migration(
        version: 20, name: "code_dpop_binding",
        statements: ["ALTER TABLE authorization_codes ADD COLUMN dpop_jkt text"])
}
