/// The platforms whose key formats and attestations passkeyd reads (the key's format itself decides how the key is
/// imported; the platform decides which attestation format is verified).
package enum DevicePlatform: String, Sendable, CaseIterable {
    /// iOS: the X9.62 point `SecKeyCopyExternalRepresentation` exports; App Attest.
    case ios
    /// Android: the SubjectPublicKeyInfo `PublicKey.getEncoded()` exports; Android Key Attestation.
    case android
}
