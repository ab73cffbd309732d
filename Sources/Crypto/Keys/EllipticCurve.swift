/// The NIST prime curves WebAuthn uses (COSE crv 1, 2, 3 — RFC 9053 §7.1).
public enum EllipticCurve: Sendable, Hashable, CaseIterable {
    /// P-256 (secp256r1, prime256v1).
    case p256
    /// P-384 (secp384r1).
    case p384
    /// P-521 (secp521r1).
    case p521

    /// The byte length of one field element (an affine coordinate), and of `r` and `s` in raw form.
    public var coordinateByteCount: Int {
        switch self {
        case .p256: 32
        case .p384: 48
        case .p521: 66
        }
    }

    /// The hash that goes with the curve in ES256/ES384/ES512 (RFC 9053 §2.1).
    public var defaultHash: HashAlgorithm {
        switch self {
        case .p256: .sha256
        case .p384: .sha384
        case .p521: .sha512
        }
    }
}
