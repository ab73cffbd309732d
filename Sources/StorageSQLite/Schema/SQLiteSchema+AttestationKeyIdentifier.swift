import Storage

extension SQLiteSchema {
    /// v21: `credentials.attestation_key_id`, for a credential of an all-zero AAGUID (U2F) registered with an
    /// attestation certificate: that certificate's key identifier (FIDO MDS 3.0 `attestationCertificateKeyIdentifiers`),
    /// so that `compromised_at_login` finds its model at login; NULL otherwise, and for every credential registered
    /// before this version.
    static let attestationKeyIdentifier = Migration(
        version: 21, name: "attestation_key_identifier",
        statements: ["ALTER TABLE credentials ADD COLUMN attestation_key_id TEXT"])
}
