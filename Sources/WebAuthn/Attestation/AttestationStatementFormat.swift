/// One attestation statement format (WebAuthn L3 §8), identified by its `fmt` string. One file per format
/// under `Attestation/Formats/`, listed in `AttestationFormatRegistry`.
public protocol AttestationStatementFormat: Sendable {
    /// The `fmt` value, e.g. "packed", "tpm" (IANA WebAuthn Attestation Statement Format Identifiers).
    static var identifier: String { get }
    /// Creates the (stateless) verifier.
    init()
    /// Runs the format's verification procedure (WebAuthn L3 §8.x). Chain-to-root validation is NOT done
    /// here (the registration verifier does it against the caller's trust anchors); format-specific
    /// certificate requirements are.
    func verify(_ input: AttestationStatementInput) throws(WebAuthnError) -> AttestationStatementResult
}
