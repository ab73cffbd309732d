import CBOR
import Crypto

/// The `tpm` attestation statement format (WebAuthn L3 §8.3): a TPM 2.0 certifies the credential key
/// (`pubArea`) with its Attestation Identity Key, whose certificate (`x5c[0]`) an Attestation CA issued.
///
/// ```
/// tpmStmtFormat = { ver: "2.0", alg: COSEAlgorithmIdentifier, x5c: [aikCert, * caCert],
///                   sig: bytes, certInfo: bytes, pubArea: bytes }
/// ```
/// ECDAA (`ecdaaKeyId`) was removed from WebAuthn Level 3 and is refused.
public struct TPMAttestation: AttestationStatementFormat {
    /// The attestation statement format identifier, "tpm".
    public static let identifier = "tpm"

    /// Creates the verifier; it has no options.
    public init() {}

    /// Runs the WebAuthn L3 §8.3.2 verification procedure.
    /// - Returns: attestation type AttCA with trust path `x5c` (AIK certificate first).
    /// - Throws: a `tpm…` code naming the first check that failed, or the shared `.unsupportedAlgorithm`,
    ///   `.missingAttestedCredentialData`, `.badSignature`.
    public func verify(_ input: AttestationStatementInput) throws(WebAuthnError) -> AttestationStatementResult {
        let statement = try TPMStatement(input.statement)
        guard let credential = input.authenticatorData.attestedCredentialData else {
            throw WebAuthnError(
                .missingAttestedCredentialData, "tpm: authenticator data has no attested credential data")
        }

        // WebAuthn L3 §8.3.2 step 2: the public key in pubArea's parameters and unique fields is
        // identical to the credentialPublicKey in attestedCredentialData.
        let pubArea = try TPMPublicArea(bytes: statement.pubArea)
        try Self.checkPublicArea(pubArea, matches: credential.credentialPublicKey.publicKey)

        // Step 3: attToBeSigned = authenticatorData || clientDataHash (the raw received bytes).
        let attToBeSigned = input.authenticatorData.rawBytes + input.clientDataHash

        // Step 4: validate certInfo.
        let certInfo = try TPMCertInfo(bytes: statement.certInfo)
        // "Verify that magic is set to TPM_GENERATED_VALUE."
        guard certInfo.magic == TPMCertInfo.generatedValue else {
            throw WebAuthnError(.tpmInvalidMagic, "certInfo.magic is 0x\(String(certInfo.magic, radix: 16))")
        }
        // "Verify that type is set to TPM_ST_ATTEST_CERTIFY."
        guard certInfo.type == TPMCertInfo.attestCertifyTag else {
            throw WebAuthnError(.tpmInvalidAttestType, "certInfo.type is 0x\(String(certInfo.type, radix: 16))")
        }
        // "Verify that extraData is set to the hash of attToBeSigned using the hash algorithm employed in alg."
        guard ConstantTime.equals(certInfo.extraData, Digest.hash(attToBeSigned, using: statement.hash)) else {
            throw WebAuthnError(
                .tpmExtraDataMismatch, "certInfo.extraData is not hash(authenticatorData || clientDataHash)")
        }
        // "Verify that attested contains a TPMS_CERTIFY_INFO structure … whose name field contains a valid
        // Name for pubArea, as computed using the algorithm in the nameAlg field of pubArea" (TPM 2.0 Part 1
        // §16: Name = nameAlg (UINT16) || H_nameAlg(TPMT_PUBLIC)).
        let certified = try certInfo.certifyInfo()
        guard let nameHash = pubArea.nameAlgorithm.hashAlgorithm else {
            throw WebAuthnError(
                .tpmNameMismatch, "pubArea.nameAlg 0x\(String(pubArea.nameAlgorithm.rawValue, radix: 16)) is not a hash"
            )
        }
        let nameAlg = pubArea.nameAlgorithm.rawValue
        let expectedName =
            [UInt8(nameAlg >> 8), UInt8(nameAlg & 0xff)] + Digest.hash(pubArea.rawBytes, using: nameHash)
        guard ConstantTime.equals(certified.name, expectedName) else {
            throw WebAuthnError(.tpmNameMismatch, "certInfo.attested.name is not the name of pubArea")
        }

        // "Verify the sig is a valid signature over certInfo using the attestation public key in aikCert
        // with the algorithm specified in alg."
        let aikCertificate = statement.aikCertificate
        guard let aikKey = try? aikCertificate.publicKey(),
            statement.alg.isValidSignature(statement.sig, for: certInfo.rawBytes, with: aikKey)
        else {
            throw WebAuthnError(.badSignature, "sig does not verify over certInfo with the AIK key")
        }

        // "Verify that aikCert meets the requirements in §8.3.1" and the id-fido-gen-ce-aaguid rule.
        try TPMAIKCertificateRequirements.check(aikCertificate, aaguid: credential.aaguid)

        // "If successful, return implementation-specific values representing attestation type AttCA and
        // attestation trust path x5c."
        return AttestationStatementResult(type: .attCA, trustPath: statement.certificates)
    }

    /// WebAuthn L3 §8.3.2 step 2 for each key type.
    static func checkPublicArea(_ pubArea: TPMPublicArea, matches credentialKey: PublicKey) throws(WebAuthnError) {
        switch (pubArea.key, credentialKey) {
        case (.rsa(let modulus, let exponent, _), .rsa(let key)):
            // TPM 2.0 Part 2 §12.2.3.5: an exponent of zero means the default exponent 2^16 + 1.
            let tpmExponent = exponent == 0 ? 65537 : UInt64(exponent)
            guard Self.stripLeadingZeros(modulus) == Self.stripLeadingZeros(key.modulus),
                Self.unsignedValue(key.exponent) == tpmExponent
            else {
                throw WebAuthnError(.tpmPublicKeyMismatch, "pubArea RSA key differs from the credential key")
            }
        case (.ecc(let curve, let x, let y), .ec(let key)):
            guard let tpmCurve = curve.ellipticCurve, tpmCurve == key.curve else {
                throw WebAuthnError(
                    .tpmPublicKeyMismatch,
                    "pubArea curve 0x\(String(curve.rawValue, radix: 16)) differs from the credential curve")
            }
            // x963Representation is 0x04 || X || Y with fixed-width coordinates.
            let width = key.curve.coordinateByteCount
            guard x.count <= width, y.count <= width else {
                throw WebAuthnError(.tpmPublicKeyMismatch, "pubArea ECC coordinates are too long")
            }
            let padded =
                [0x04] + [UInt8](repeating: 0, count: width - x.count) + x
                + [UInt8](repeating: 0, count: width - y.count) + y
            guard padded == key.x963Representation else {
                throw WebAuthnError(.tpmPublicKeyMismatch, "pubArea ECC point differs from the credential key")
            }
        default:
            throw WebAuthnError(.tpmPublicKeyMismatch, "pubArea key type differs from the credential key type")
        }
    }

    private static func stripLeadingZeros(_ bytes: [UInt8]) -> ArraySlice<UInt8> {
        bytes.drop { $0 == 0 }
    }

    /// The value of a big-endian unsigned integer, or nil when it does not fit 64 bits.
    private static func unsignedValue(_ bytes: [UInt8]) -> UInt64? {
        let significant = stripLeadingZeros(bytes)
        guard significant.count <= 8 else { return nil }
        return significant.reduce(UInt64(0)) { ($0 << 8) | UInt64($1) }
    }
}
