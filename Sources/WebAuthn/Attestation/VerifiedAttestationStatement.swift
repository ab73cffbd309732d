/// One attestation statement that passed its format's verification procedure (WebAuthn L3 §7.1 step 22): the
/// attestation object's own, or one entry of a `compound` statement (§8.9).
public struct VerifiedAttestationStatement: Sendable {
    /// The format that verified it (never "compound").
    public let format: String
    /// What its verification procedure established.
    public let result: AttestationStatementResult

    /// Creates one.
    public init(format: String, result: AttestationStatementResult) {
        self.format = format
        self.result = result
    }
}
