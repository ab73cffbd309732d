/// What a verified platform key attestation proves about an enrolled device key; only the verifiers in this
/// folder construct one.
public struct VerifiedPlatformAttestation: Sendable, Equatable {
    /// Android Key Attestation (`KeyStore.getCertificateChain()`).
    public static let androidKeyAttestation = "android-key-attestation"
    /// Apple App Attest (`DCAppAttestService.attestKey`).
    public static let appleAppAttest = "apple-appattest"

    /// `android-key-attestation` or `apple-appattest`.
    public let platform: String
    /// Android: `tee` or `strongbox`; App Attest: `appattest` (production) or `appattestdevelop`.
    public let level: String
    /// Android: the `rootOfTrust` verified boot state (`verified`, `self_signed`, `unverified`, `failed`).
    public let verifiedBootState: String?

    init(platform: String, level: String, verifiedBootState: String? = nil) {
        self.platform = platform
        self.level = level
        self.verifiedBootState = verifiedBootState
    }
}
