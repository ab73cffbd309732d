import Crypto

/// COSE algorithm identifiers this server verifies (IANA COSE Algorithms registry; RFC 9053, RFC 8812,
/// and the fully-specified identifiers of RFC 9864, which WebAuthn L3 §5.8.5 admits next to the older
/// polymorphic ones).
public enum COSEAlgorithm: Int, Sendable, CaseIterable {
    /// ECDSA with SHA-256 (on P-256 in WebAuthn, L3 §5.8.5).
    case es256 = -7
    /// ESP256: ECDSA on P-256 with SHA-256, fully specified (RFC 9864 §2.1).
    case esp256 = -9
    /// ECDSA with SHA-384 (on P-384 in WebAuthn).
    case es384 = -35
    /// ESP384: ECDSA on P-384 with SHA-384, fully specified (RFC 9864 §2.1).
    case esp384 = -51
    /// ECDSA with SHA-512 (on P-521 in WebAuthn).
    case es512 = -36
    /// ESP512: ECDSA on P-521 with SHA-512, fully specified (RFC 9864 §2.1).
    case esp512 = -52
    /// EdDSA (Ed25519 in WebAuthn, L3 §5.8.5).
    case edDSA = -8
    /// Ed25519, fully specified (RFC 9864 §2.2).
    case ed25519 = -19
    /// Ed448, fully specified (RFC 9864 §2.2); WebAuthn's only way to Ed448, since -8 means Ed25519.
    case ed448 = -53
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

    /// The digest the algorithm signs with; `nil` for the EdDSA family, which signs the message itself
    /// (PureEdDSA, RFC 8032 §5.1.6 and §5.2.6) and so has no separate hash to report.
    public var hashAlgorithm: HashAlgorithm? {
        switch self {
        case .es256, .esp256, .ps256, .rs256: .sha256
        case .es384, .esp384, .ps384, .rs384: .sha384
        case .es512, .esp512, .ps512, .rs512: .sha512
        case .rs1: .sha1
        case .edDSA, .ed25519, .ed448: nil
        }
    }

    /// The COSE key type (`kty`, RFC 9053 §7) keys of this algorithm must have.
    var keyType: COSEKeyType {
        switch self {
        case .es256, .esp256, .es384, .esp384, .es512, .esp512: .ec2
        case .edDSA, .ed25519, .ed448: .okp
        case .ps256, .ps384, .ps512, .rs256, .rs384, .rs512, .rs1: .rsa
        }
    }

    /// The curve an ECDSA algorithm is bound to (WebAuthn L3 §5.8.5 for ES256/384/512, RFC 9864 §2.1 for
    /// ESP256/384/512).
    var ellipticCurve: EllipticCurve? {
        switch self {
        case .es256, .esp256: .p256
        case .es384, .esp384: .p384
        case .es512, .esp512: .p521
        default: nil
        }
    }

    /// The COSE OKP curve (`crv`, RFC 9053 §7.2) an EdDSA algorithm's key must name: Ed25519 (6) for
    /// EdDSA (-8, WebAuthn L3 §5.8.5) and Ed25519 (-19), Ed448 (7) for Ed448 (-53, RFC 9864 §2.2).
    var edwardsCurve: COSEEdwardsCurve? {
        switch self {
        case .edDSA, .ed25519: .ed25519
        case .ed448: .ed448
        default: nil
        }
    }
}

/// COSE key types (RFC 9053 §7, RFC 8230 §4).
enum COSEKeyType: Int {
    case okp = 1
    case ec2 = 2
    case rsa = 3
}

/// COSE OKP curves for signatures (RFC 9053 §7.2, Table 18).
enum COSEEdwardsCurve: Int {
    case ed25519 = 6
    case ed448 = 7
}
