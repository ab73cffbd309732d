/// The "none" attestation statement format (WebAuthn L3 §8.7): no attestation at all.
public struct NoneAttestation: AttestationStatementFormat {
    /// "none".
    public static let identifier = "none"

    /// Creates the verifier.
    public init() {}

    /// WebAuthn L3 §8.7: attStmt is the empty map; the result is attestation type None.
    public func verify(_ input: AttestationStatementInput) throws(WebAuthnError) -> AttestationStatementResult {
        guard input.statement.mapEntries?.isEmpty == true else {
            throw WebAuthnError(.invalidAttestationStatement, "none: attStmt must be an empty map")
        }
        return AttestationStatementResult(type: .none, trustPath: [])
    }
}
