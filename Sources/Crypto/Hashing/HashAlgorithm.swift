/// The hash functions used by WebAuthn (COSE `alg` values), X.509 and JOSE.
public enum HashAlgorithm: Sendable, Hashable, CaseIterable {
    /// SHA-1 (FIPS 180-4). Only for legacy RSA PKCS#1 v1.5 (`RS1`, COSE -65535) and TPM attestation.
    case sha1
    /// SHA-256 (FIPS 180-4).
    case sha256
    /// SHA-384 (FIPS 180-4).
    case sha384
    /// SHA-512 (FIPS 180-4).
    case sha512

    /// The digest length in bytes.
    public var digestByteCount: Int {
        switch self {
        case .sha1: 20
        case .sha256: 32
        case .sha384: 48
        case .sha512: 64
        }
    }
}
