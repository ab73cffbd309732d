import Storage

extension PostgresSchema {
    /// v21: `credentials.attestation_key_id` (as SQLite's v21), the attestation certificate's key identifier of a
    /// credential of an all-zero AAGUID (U2F).
    static let attestationKeyIdentifier = Migration(
        version: 21, name: "attestation_key_identifier",
        statements: ["ALTER TABLE credentials ADD COLUMN attestation_key_id text"])
}
