extension WebAuthnError.Code {
    /// `android-key` attStmt is not a map or `alg`, `sig`, `x5c` are missing or mistyped (WebAuthn L3 §8.4 syntax).
    public static let androidKeyMalformedStatement = Self(rawValue: "androidKeyMalformedStatement")
    /// An `android-key` x5c entry is not a DER X.509 certificate.
    public static let androidKeyInvalidCertificate = Self(rawValue: "androidKeyInvalidCertificate")
    /// x5c[0]'s public key is not the credential public key (WebAuthn L3 §8.4.2 step 3).
    public static let androidKeyPublicKeyMismatch = Self(rawValue: "androidKeyPublicKeyMismatch")
    /// x5c[0] lacks the key description extension 1.3.6.1.4.1.11129.2.1.17 or it does not parse.
    public static let androidKeyMalformedKeyDescription = Self(rawValue: "androidKeyMalformedKeyDescription")
    /// KeyDescription.attestationChallenge is not clientDataHash (WebAuthn L3 §8.4.2 step 4).
    public static let androidKeyChallengeMismatch = Self(rawValue: "androidKeyChallengeMismatch")
    /// An authorization list holds allApplications [600]: the key is not scoped to the RP ID (§8.4.2 step 5).
    public static let androidKeyAllApplications = Self(rawValue: "androidKeyAllApplications")
    /// The authorization list's origin [702] is not KM_ORIGIN_GENERATED (§8.4.2 step 5).
    public static let androidKeyOriginNotGenerated = Self(rawValue: "androidKeyOriginNotGenerated")
    /// The authorization list's purpose [1] does not contain KM_PURPOSE_SIGN (§8.4.2 step 5).
    public static let androidKeyPurposeNotSign = Self(rawValue: "androidKeyPurposeNotSign")
}
