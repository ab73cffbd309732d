import Crypto
import Foundation

/// What an Android Key Attestation chain must show for an enrolment (docs/device-keys.md).
public struct AndroidKeyAttestationExpectations: Sendable {
    /// The server nonce issued for this enrolment: the `attestationChallenge` the app passed to
    /// `KeyGenParameterSpec.Builder.setAttestationChallenge`.
    public var challenge: [UInt8]
    /// The key being enrolled.
    public var publicKey: DevicePublicKey
    /// The client's Android package name.
    public var packageName: String
    /// SHA-256 digests of the client's signing certificates.
    public var signatureDigests: [[UInt8]]
    /// Google's hardware attestation roots.
    public var roots: TrustStore
    /// The verification time.
    public var now: Date

    /// Creates the expectations.
    public init(
        challenge: [UInt8], publicKey: DevicePublicKey, packageName: String, signatureDigests: [[UInt8]],
        roots: TrustStore, now: Date
    ) {
        self.challenge = challenge
        self.publicKey = publicKey
        self.packageName = packageName
        self.signatureDigests = signatureDigests
        self.roots = roots
        self.now = now
    }
}
