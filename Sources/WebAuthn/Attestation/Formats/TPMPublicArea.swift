/// `TPMT_PUBLIC` (TPM 2.0 Part 2 §12.2.4): the public area of the credential key as the TPM sees it,
/// carried as `pubArea` in a `tpm` attestation statement.
///
/// ```
/// type(2) nameAlg(2) objectAttributes(4) authPolicy(TPM2B)
/// parameters: RSA  → symmetric(TPMT_SYM_DEF_OBJECT) scheme(TPMT_RSA_SCHEME) keyBits(2) exponent(4)
///             ECC  → symmetric(TPMT_SYM_DEF_OBJECT) scheme(TPMT_ECC_SCHEME) curveID(2) kdf(TPMT_KDF_SCHEME)
/// unique:     RSA  → modulus(TPM2B)
///             ECC  → x(TPM2B) y(TPM2B)
/// ```
struct TPMPublicArea: Sendable {
    /// The public key fields of `parameters` and `unique`, by object type.
    enum Key: Sendable {
        /// An RSA key: big-endian modulus and the `exponent` field (0 means the default 2^16 + 1).
        case rsa(modulus: [UInt8], exponent: UInt32, keyBits: UInt16)
        /// An ECC key: the curve and the big-endian affine coordinates.
        case ecc(curve: TPMECCCurve, x: [UInt8], y: [UInt8])
    }

    /// The exact bytes received; the TPM name is a digest of these.
    let rawBytes: [UInt8]
    /// `type`: TPM_ALG_RSA or TPM_ALG_ECC.
    let type: TPMAlgorithmID
    /// `nameAlg`: the hash used to compute this object's name.
    let nameAlgorithm: TPMAlgorithmID
    /// `objectAttributes` (TPMA_OBJECT bit field).
    let objectAttributes: UInt32
    /// `authPolicy` digest (may be empty).
    let authPolicy: [UInt8]
    /// The key material from `parameters` and `unique`.
    let key: Key

    /// Parses `pubArea`; every byte must belong to the structure.
    /// - Throws: `.tpmMalformedPublicArea` for truncated, trailing or unsupported-type input.
    init(bytes: [UInt8]) throws(WebAuthnError) {
        var reader = TPMByteReader(bytes, structure: "pubArea", code: .tpmMalformedPublicArea)
        rawBytes = bytes
        type = TPMAlgorithmID(rawValue: try reader.readUInt16())
        nameAlgorithm = TPMAlgorithmID(rawValue: try reader.readUInt16())
        objectAttributes = try reader.readUInt32()
        authPolicy = try reader.readSizedBuffer()
        switch type {
        case .rsa:
            // TPMS_RSA_PARMS (Part 2 §12.2.3.5)
            try Self.skipSymmetricDefinition(&reader)
            try Self.skipScheme(&reader)
            let keyBits = try reader.readUInt16()
            let exponent = try reader.readUInt32()
            // TPM2B_PUBLIC_KEY_RSA (Part 2 §11.2.4.5)
            let modulus = try reader.readSizedBuffer()
            key = .rsa(modulus: modulus, exponent: exponent, keyBits: keyBits)
        case .ecc:
            // TPMS_ECC_PARMS (Part 2 §12.2.3.6)
            try Self.skipSymmetricDefinition(&reader)
            try Self.skipScheme(&reader)
            let curve = TPMECCCurve(rawValue: try reader.readUInt16())
            try Self.skipScheme(&reader)  // kdf: TPMT_KDF_SCHEME, same shape as a scheme with a hash
            // TPMS_ECC_POINT (Part 2 §11.2.5.2)
            let x = try reader.readSizedBuffer()
            let y = try reader.readSizedBuffer()
            key = .ecc(curve: curve, x: x, y: y)
        default:
            throw WebAuthnError(
                .tpmMalformedPublicArea, "pubArea type 0x\(String(type.rawValue, radix: 16)) is neither RSA nor ECC"
            )
        }
        try reader.requireEnd()
    }

    /// TPMT_SYM_DEF_OBJECT (Part 2 §11.1.7): `algorithm(2)`, then `keyBits(2) mode(2)` unless NULL.
    private static func skipSymmetricDefinition(_ reader: inout TPMByteReader) throws(WebAuthnError) {
        let algorithm = TPMAlgorithmID(rawValue: try reader.readUInt16())
        if algorithm != .null {
            _ = try reader.readBytes(count: 4)
        }
    }

    /// TPMT_RSA_SCHEME / TPMT_ECC_SCHEME / TPMT_KDF_SCHEME (Part 2 §11.2): `scheme(2)`, then the
    /// details: nothing for NULL, `hashAlg(2) count(2)` for ECDAA, `hashAlg(2)` for every other scheme.
    private static func skipScheme(_ reader: inout TPMByteReader) throws(WebAuthnError) {
        let scheme = TPMAlgorithmID(rawValue: try reader.readUInt16())
        switch scheme {
        case .null: break
        case .ecdaa: _ = try reader.readBytes(count: 4)
        default: _ = try reader.readBytes(count: 2)
        }
    }
}
