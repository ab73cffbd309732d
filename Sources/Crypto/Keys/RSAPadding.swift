/// RSA signature paddings (RFC 8017).
public enum RSAPadding: Sendable, Hashable {
    /// RSASSA-PKCS1-v1_5 (RFC 8017 §8.2): COSE RS1/RS256/RS384/RS512, X.509, TPM.
    case pkcs1v15
    /// RSASSA-PSS (RFC 8017 §8.1) with MGF1 over the same hash and a salt as long as the digest
    /// (RFC 8230 §2: COSE PS256/PS384/PS512).
    case pss
}
