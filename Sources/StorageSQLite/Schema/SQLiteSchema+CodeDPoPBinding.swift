import Storage

extension SQLiteSchema {
    /// v20: `authorization_codes.dpop_jkt`, the authorization request's `dpop_jkt` (RFC 9449 §10): the thumbprint of
    /// the DPoP key whose proof alone may redeem the code; NULL for a code whose request named none (every code
    /// issued before this version).
    static let codeDPoPBinding = Migration(
        version: 20, name: "code_dpop_binding",
        statements: ["ALTER TABLE authorization_codes ADD COLUMN dpop_jkt TEXT"])
}
