/// Attestation types (WebAuthn L3 §6.5.4): what the attestation says about where the key lives.
public enum AttestationType: String, Sendable {
    /// No attestation was provided (`none` format, or the RP asked for none).
    case none
    /// Self attestation: the credential key signed its own attestation.
    case `self` = "self"
    /// Basic attestation: an attestation key shared by a batch of authenticators.
    case basic
    /// Attestation CA: a CA-issued, per-credential attestation key (e.g. TPM AIK).
    case attCA = "attca"
    /// Anonymization CA: an anonymising CA issued a per-credential certificate (e.g. Apple).
    case anonCA = "anonca"
}
