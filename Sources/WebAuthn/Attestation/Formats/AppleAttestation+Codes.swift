extension WebAuthnError.Code {
    /// `apple` attStmt is not a map or `x5c` is missing, empty or not an array of bytes (WebAuthn L3 §8.8 syntax).
    public static let appleMalformedStatement = Self(rawValue: "appleMalformedStatement")
    /// An `apple` x5c entry is not a DER X.509 certificate.
    public static let appleInvalidCertificate = Self(rawValue: "appleInvalidCertificate")
    /// credCert lacks extension 1.2.840.113635.100.8.2 or it is not `SEQUENCE { [1] EXPLICIT OCTET STRING }`.
    public static let appleMalformedNonceExtension = Self(rawValue: "appleMalformedNonceExtension")
    /// The nonce in credCert is not SHA-256(authenticatorData || clientDataHash) (WebAuthn L3 §8.8.2 step 4).
    public static let appleNonceMismatch = Self(rawValue: "appleNonceMismatch")
    /// credCert's subject public key is not the credential public key (WebAuthn L3 §8.8.2 step 5).
    public static let applePublicKeyMismatch = Self(rawValue: "applePublicKeyMismatch")
}
