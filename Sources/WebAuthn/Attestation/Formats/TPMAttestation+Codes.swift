extension WebAuthnError.Code {
    /// `tpm` attStmt is missing a field or a field has the wrong CBOR type (WebAuthn L3 §8.3 syntax).
    public static let tpmMalformedStatement = Self(rawValue: "tpmMalformedStatement")
    /// `tpm` attStmt `ver` is not "2.0" (WebAuthn L3 §8.3).
    public static let tpmUnsupportedVersion = Self(rawValue: "tpmUnsupportedVersion")
    /// `tpm` attStmt uses ECDAA (`ecdaaKeyId`), which WebAuthn L3 removed and this server does not support.
    public static let tpmECDAANotSupported = Self(rawValue: "tpmECDAANotSupported")
    /// `tpm` attStmt has no `x5c` (WebAuthn L3 §8.3.2: "Verify that x5c is present").
    public static let tpmMissingCertificate = Self(rawValue: "tpmMissingCertificate")
    /// A `tpm` x5c entry is not a DER X.509 certificate.
    public static let tpmInvalidCertificate = Self(rawValue: "tpmInvalidCertificate")
    /// `pubArea` is not a well-formed TPMT_PUBLIC of type RSA or ECC.
    public static let tpmMalformedPublicArea = Self(rawValue: "tpmMalformedPublicArea")
    /// `pubArea`'s key is not the credential public key (WebAuthn L3 §8.3.2).
    public static let tpmPublicKeyMismatch = Self(rawValue: "tpmPublicKeyMismatch")
    /// `certInfo` is not a well-formed TPMS_ATTEST.
    public static let tpmMalformedCertInfo = Self(rawValue: "tpmMalformedCertInfo")
    /// `certInfo.magic` is not TPM_GENERATED_VALUE.
    public static let tpmInvalidMagic = Self(rawValue: "tpmInvalidMagic")
    /// `certInfo.type` is not TPM_ST_ATTEST_CERTIFY.
    public static let tpmInvalidAttestType = Self(rawValue: "tpmInvalidAttestType")
    /// `certInfo.extraData` is not hash(authenticatorData || clientDataHash) with `alg`'s hash.
    public static let tpmExtraDataMismatch = Self(rawValue: "tpmExtraDataMismatch")
    /// `certInfo.attested.name` is not the name of `pubArea` (or `nameAlg` is not a hash).
    public static let tpmNameMismatch = Self(rawValue: "tpmNameMismatch")
    /// The AIK certificate is not version 3 (WebAuthn L3 §8.3.1).
    public static let tpmCertificateVersion = Self(rawValue: "tpmCertificateVersion")
    /// The AIK certificate's subject is not empty (WebAuthn L3 §8.3.1).
    public static let tpmCertificateSubjectNotEmpty = Self(rawValue: "tpmCertificateSubjectNotEmpty")
    /// The AIK certificate lacks a critical subjectAltName naming TPM manufacturer, model and version.
    public static let tpmCertificateSubjectAltName = Self(rawValue: "tpmCertificateSubjectAltName")
    /// The AIK certificate's extendedKeyUsage lacks tcg-kp-AIKCertificate 2.23.133.8.3.
    public static let tpmCertificateExtendedKeyUsage = Self(rawValue: "tpmCertificateExtendedKeyUsage")
    /// The AIK certificate's basicConstraints is absent or says CA.
    public static let tpmCertificateBasicConstraints = Self(rawValue: "tpmCertificateBasicConstraints")
    /// The AIK certificate's id-fido-gen-ce-aaguid extension differs from the authenticator data AAGUID.
    public static let tpmAAGUIDMismatch = Self(rawValue: "tpmAAGUIDMismatch")
}
