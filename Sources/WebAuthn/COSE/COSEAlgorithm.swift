import Crypto

/// COSE algorithm identifiers this server verifies (IANA COSE Algorithms registry; RFC 9053, RFC 8812).
public enum COSEAlgorithm: Int, Sendable, CaseIterable {
    /// ECDSA with SHA-256 on P-256.
    case es256 = -7
    /// ECDSA with SHA-384 on P-384.
    case es384 = -35
    /// ECDSA with SHA-512 on P-521.
    case es512 = -36
    /// EdDSA (Ed25519 in WebAuthn).
    case edDSA = -8
    /// RSASSA-PSS with SHA-256.
    case ps256 = -37
    /// RSASSA-PSS with SHA-384.
    case ps384 = -38
    /// RSASSA-PSS with SHA-512.
    case ps512 = -39
    /// RSASSA-PKCS1-v1_5 with SHA-256.
    case rs256 = -257
    /// RSASSA-PKCS1-v1_5 with SHA-384.
    case rs384 = -258
    /// RSASSA-PKCS1-v1_5 with SHA-512.
    case rs512 = -259
    /// RSASSA-PKCS1-v1_5 with SHA-1 (legacy TPMs only).
    case rs1 = -65535

    /// The digest the algorithm signs with (EdDSA hashes internally: SHA-512, reported for completeness).
    public var hashAlgorithm: HashAlgorithm {
        switch self {
        case .es256, .ps256, .rs256: return .sha256
        case .es384, .ps384, .rs384: return .sha384
        case .es512, .ps512, .rs512, .edDSA: return .sha512
        case .rs1: return .sha1
        }
    }

    /// The COSE key type (`kty`, RFC 9053 §7) keys of this algorithm must have.
    var keyType: COSEKeyType {
        switch self {
        case .es256, .es384, .es512: return .ec2
        case .edDSA: return .okp
        case .ps256, .ps384, .ps512, .rs256, .rs384, .rs512, .rs1: return .rsa
        }
    }

    /// The curve an ECDSA algorithm is bound to (RFC 9053 §2.1: ES256 ↔ P-256 and so on).
    var ellipticCurve: EllipticCurve? {
        switch self {
        case .es256: return .p256
        case .es384: return .p384
        case .es512: return .p521
        default: return nil
        }
    }
}

/// COSE key types (RFC 9053 §7, RFC 8230 §4).
enum COSEKeyType: Int {
    case okp = 1
    case ec2 = 2
    case rsa = 3
}
