import Crypto

/// One verified attestation statement of a registration with its trust outcome (WebAuthn L3 §7.1 steps 22–24): the
/// attestation object's statement, or one entry of a `compound` one (§8.9).
public struct JudgedAttestationStatement: Sendable {
    /// The format that verified it (never "compound").
    public let format: String
    /// The attestation type it proved.
    public let type: AttestationType
    /// Its trust path, leaf first (empty for none and self attestation).
    public let trustPath: [Certificate]
    /// Whether its trust path chained to an anchor for its format and authenticator model.
    public let trust: AttestationTrustResult

    init(format: String, result: AttestationStatementResult, trust: AttestationTrustResult) {
        self.format = format
        self.type = result.type
        self.trustPath = result.trustPath
        self.trust = trust
    }

    /// The statement a registration is judged by: the first that chained to an anchor; else the first with a trust
    /// path (an untrusted one, its reason naming its format when there are several); else self attestation; else
    /// none. WebAuthn L3 §8.9 step 2 leaves "any combination of outputs" to the relying party: this one reports the
    /// strongest claim that verified, so that a compound statement is trusted when any of its entries is.
    static func strongest(of statements: [JudgedAttestationStatement]) -> JudgedAttestationStatement? {
        func rank(_ statement: JudgedAttestationStatement) -> Int {
            switch statement.trust {
            case .trusted: return 0
            case .untrusted: return 1
            case .selfAttestation: return 2
            case .noAttestation: return 3
            }
        }
        guard
            let best = statements.enumerated().min(by: { (rank($0.element), $0.offset) < (rank($1.element), $1.offset) }
            )
        else { return nil }
        guard statements.count > 1, case .untrusted(let reason) = best.element.trust else { return best.element }
        return JudgedAttestationStatement(
            format: best.element.format, type: best.element.type, trustPath: best.element.trustPath,
            trust: .untrusted(reason: "compound attStmt[\(best.offset)] (\(best.element.format)): \(reason)"))
    }

    private init(format: String, type: AttestationType, trustPath: [Certificate], trust: AttestationTrustResult) {
        self.format = format
        self.type = type
        self.trustPath = trustPath
        self.trust = trust
    }
}
