import Crypto

/// A `TPM_ALG_ID` (TPM 2.0 Part 2 §6.3): the 16-bit identifiers of the algorithms that appear in
/// `pubArea` (object type, name algorithm, schemes) and in TPM names.
struct TPMAlgorithmID: RawRepresentable, Hashable, Sendable {
    let rawValue: UInt16

    init(rawValue: UInt16) { self.rawValue = rawValue }

    /// TPM_ALG_RSA: an RSA object (`TPMT_PUBLIC.type`).
    static let rsa = TPMAlgorithmID(rawValue: 0x0001)
    /// TPM_ALG_SHA1.
    static let sha1 = TPMAlgorithmID(rawValue: 0x0004)
    /// TPM_ALG_SHA256.
    static let sha256 = TPMAlgorithmID(rawValue: 0x000B)
    /// TPM_ALG_SHA384.
    static let sha384 = TPMAlgorithmID(rawValue: 0x000C)
    /// TPM_ALG_SHA512.
    static let sha512 = TPMAlgorithmID(rawValue: 0x000D)
    /// TPM_ALG_NULL: "no algorithm" in scheme and symmetric fields.
    static let null = TPMAlgorithmID(rawValue: 0x0010)
    /// TPM_ALG_ECDAA: the one signing scheme whose details carry a `count` after the hash.
    static let ecdaa = TPMAlgorithmID(rawValue: 0x001A)
    /// TPM_ALG_ECC: an elliptic-curve object (`TPMT_PUBLIC.type`).
    static let ecc = TPMAlgorithmID(rawValue: 0x0023)

    /// The digest this ID names when it is used as a `nameAlg`, or nil for a non-hash ID.
    var hashAlgorithm: HashAlgorithm? {
        switch self {
        case .sha1: .sha1
        case .sha256: .sha256
        case .sha384: .sha384
        case .sha512: .sha512
        default: nil
        }
    }
}

/// A `TPM_ECC_CURVE` (TPM 2.0 Part 2 §6.4): the curve of an ECC `pubArea`.
struct TPMECCCurve: RawRepresentable, Hashable, Sendable {
    let rawValue: UInt16

    init(rawValue: UInt16) { self.rawValue = rawValue }

    /// TPM_ECC_NIST_P256.
    static let nistP256 = TPMECCCurve(rawValue: 0x0003)
    /// TPM_ECC_NIST_P384.
    static let nistP384 = TPMECCCurve(rawValue: 0x0004)
    /// TPM_ECC_NIST_P521.
    static let nistP521 = TPMECCCurve(rawValue: 0x0005)

    /// The matching Crypto curve, nil for curves WebAuthn credentials cannot use here.
    var ellipticCurve: EllipticCurve? {
        switch self {
        case .nistP256: .p256
        case .nistP384: .p384
        case .nistP521: .p521
        default: nil
        }
    }
}
