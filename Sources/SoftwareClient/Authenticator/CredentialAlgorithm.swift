/// The credential algorithms the software authenticator implements, by COSE identifier (RFC 9053, RFC 8812).
public enum CredentialAlgorithm: Int, Sendable, CaseIterable {
    /// ECDSA with P-256 and SHA-256.
    case es256 = -7
    /// EdDSA with Ed25519.
    case edDSA = -8
    /// RSASSA-PKCS1-v1_5 with SHA-256 (RSA-2048 keys).
    case rs256 = -257

    /// The COSE algorithm identifier (`alg`, label 3).
    public var coseIdentifier: Int { rawValue }
}
