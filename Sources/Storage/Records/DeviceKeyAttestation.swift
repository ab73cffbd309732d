import Foundation

/// What a verified platform key attestation said about a device key when it was enrolled (docs/device-keys.md):
/// Android Key Attestation or Apple App Attest. A key enrolled without one has none.
public struct DeviceKeyAttestation: Sendable, Hashable {
    /// `android-key-attestation` or `apple-appattest`.
    public var platform: String
    /// Android: `tee` or `strongbox`; iOS: `appattest` or `appattestdevelop` (the App Attest environment).
    public var level: String
    /// When the server verified it.
    public var verifiedAt: Date
    /// Android only: the `rootOfTrust` verified boot state (`verified`, `self_signed`, `unverified`, `failed`).
    public var verifiedBootState: String?

    /// Creates an attestation record.
    public init(platform: String, level: String, verifiedAt: Date, verifiedBootState: String? = nil) {
        self.platform = platform
        self.level = level
        self.verifiedAt = verifiedAt
        self.verifiedBootState = verifiedBootState
    }
}
