import Crypto
import Foundation

/// What an Apple App Attest attestation must show for a device-key enrolment (docs/device-keys.md).
public struct AppleAppAttestExpectations: Sendable {
    /// The server nonce issued for this enrolment, as the text `POST /device-keys/enrolment-challenge` returned: the
    /// client data's `nonce`.
    public var nonce: String
    /// The Secure Enclave key being enrolled: the client data's `public_key_sha256` is SHA-256 of its X9.62 point.
    public var publicKey: DevicePublicKey
    /// The client's App IDs, `<team id>.<bundle id>`: the authenticator data's rpIdHash is SHA-256 of one of them.
    public var appIDs: [String]
    /// Whether the development environment (aaguid `appattestdevelop`) is accepted besides production.
    public var allowsDevelopment: Bool
    /// Apple's App Attestation root.
    public var roots: TrustStore
    /// The verification time.
    public var now: Date

    /// Creates the expectations.
    public init(
        nonce: String, publicKey: DevicePublicKey, appIDs: [String], allowsDevelopment: Bool, roots: TrustStore,
        now: Date
    ) {
        self.nonce = nonce
        self.publicKey = publicKey
        self.appIDs = appIDs
        self.allowsDevelopment = allowsDevelopment
        self.roots = roots
        self.now = now
    }
}
