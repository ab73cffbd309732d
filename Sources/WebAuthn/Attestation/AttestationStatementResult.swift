import Crypto

/// What a format's verification procedure establishes (WebAuthn L3 §6.5.2): the attestation type and
/// the trust path, to be judged against trust anchors by the registration verifier (§7.1 step 23).
public struct AttestationStatementResult: Sendable {
    /// The attestation type the statement proves.
    public let type: AttestationType
    /// The certificate path, leaf first; empty for `none` and self attestation.
    public let trustPath: [Certificate]

    /// Creates a result.
    public init(type: AttestationType, trustPath: [Certificate]) {
        self.type = type
        self.trustPath = trustPath
    }
}
