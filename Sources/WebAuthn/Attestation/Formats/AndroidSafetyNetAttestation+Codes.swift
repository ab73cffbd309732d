extension WebAuthnError.Code {
    /// `android-safetynet` attStmt is not a map or `ver`/`response` are missing or mistyped (WebAuthn L3 §8.5 syntax).
    public static let androidSafetyNetMalformedStatement = Self(rawValue: "androidSafetyNetMalformedStatement")
    /// `android-safetynet` attStmt `ver` is empty (WebAuthn L3 §8.5: the Google Play Services version).
    public static let androidSafetyNetInvalidVersion = Self(rawValue: "androidSafetyNetInvalidVersion")
    /// `response` is not a compact JWS with a JSON header (alg, x5c) and a JSON SafetyNet payload.
    public static let androidSafetyNetMalformedResponse = Self(rawValue: "androidSafetyNetMalformedResponse")
    /// A JWS header x5c entry is not a base64 DER X.509 certificate.
    public static let androidSafetyNetInvalidCertificate = Self(rawValue: "androidSafetyNetInvalidCertificate")
    /// The leaf certificate is not issued to attest.android.com.
    public static let androidSafetyNetHostnameMismatch = Self(rawValue: "androidSafetyNetHostnameMismatch")
    /// The payload nonce is not base64(SHA-256(authenticatorData || clientDataHash)) (WebAuthn L3 §8.5.2 step 3).
    public static let androidSafetyNetNonceMismatch = Self(rawValue: "androidSafetyNetNonceMismatch")
    /// The payload's ctsProfileMatch is not true.
    public static let androidSafetyNetCTSProfileMismatch = Self(rawValue: "androidSafetyNetCTSProfileMismatch")
    /// The payload's timestampMs lies outside the accepted window around the verification time.
    public static let androidSafetyNetTimestampOutOfRange = Self(rawValue: "androidSafetyNetTimestampOutOfRange")
}
