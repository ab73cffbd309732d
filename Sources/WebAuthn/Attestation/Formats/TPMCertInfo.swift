/// `TPMS_ATTEST` (TPM 2.0 Part 2 §10.12.12): the structure the AIK signed, carried as `certInfo`
/// in a `tpm` attestation statement.
///
/// ```
/// magic(4) type(2) qualifiedSigner(TPM2B_NAME) extraData(TPM2B_DATA)
/// clockInfo: clock(8) resetCount(4) restartCount(4) safe(1)
/// firmwareVersion(8)
/// attested (TPMU_ATTEST, by type); for TPM_ST_ATTEST_CERTIFY a TPMS_CERTIFY_INFO:
///     name(TPM2B_NAME) qualifiedName(TPM2B_NAME)
/// ```
struct TPMCertInfo: Sendable {
    /// TPM_GENERATED_VALUE (Part 2 §6.2): every TPM-generated structure starts with it.
    static let generatedValue: UInt32 = 0xff54_4347
    /// TPM_ST_ATTEST_CERTIFY (Part 2 §6.9): the structure tag of a TPM2_Certify() result.
    static let attestCertifyTag: UInt16 = 0x8017

    /// The exact bytes received; the signature covers these.
    let rawBytes: [UInt8]
    /// `magic`.
    let magic: UInt32
    /// `type` (a TPM_ST structure tag).
    let type: UInt16
    /// `qualifiedSigner` (ignored by WebAuthn L3 §8.3.2, kept for logs).
    let qualifiedSigner: [UInt8]
    /// `extraData`: the caller-provided qualifying data, here hash(authenticatorData || clientDataHash).
    let extraData: [UInt8]
    /// The bytes of `attested`, read by `certifyInfo()` once `type` has been checked.
    let rawAttested: [UInt8]

    /// Parses the fixed header of `certInfo`; `attested` is kept raw because its shape depends on `type`.
    /// - Throws: `.tpmMalformedCertInfo` for truncated input.
    init(bytes: [UInt8]) throws(WebAuthnError) {
        var reader = TPMByteReader(bytes, structure: "certInfo", code: .tpmMalformedCertInfo)
        rawBytes = bytes
        magic = try reader.readUInt32()
        type = try reader.readUInt16()
        qualifiedSigner = try reader.readSizedBuffer()
        extraData = try reader.readSizedBuffer()
        // TPMS_CLOCK_INFO (Part 2 §10.11.1): clock(8) resetCount(4) restartCount(4) safe(1)
        _ = try reader.readBytes(count: 17)
        _ = try reader.readUInt64()  // firmwareVersion
        rawAttested = try reader.readBytes(count: reader.remainingCount)
    }

    /// `TPMS_CERTIFY_INFO` (Part 2 §10.12.3): the certified object's name and qualified name.
    /// Valid only when `type` is TPM_ST_ATTEST_CERTIFY; every byte must belong to it.
    /// - Throws: `.tpmMalformedCertInfo` for truncated or trailing input.
    func certifyInfo() throws(WebAuthnError) -> (name: [UInt8], qualifiedName: [UInt8]) {
        var reader = TPMByteReader(rawAttested, structure: "certInfo.attested", code: .tpmMalformedCertInfo)
        let name = try reader.readSizedBuffer()
        let qualifiedName = try reader.readSizedBuffer()
        try reader.requireEnd()
        return (name, qualifiedName)
    }
}
