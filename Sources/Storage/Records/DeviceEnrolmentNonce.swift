import Foundation

/// A server nonce issued for one device-key enrolment (`POST /device-keys/enrolment-challenge`): the value the
/// platform attestation must carry (Android `attestationChallenge`, App Attest client data). Single use.
public struct DeviceEnrolmentNonce: Sendable, Hashable {
    /// The nonce as sent to the app (base64url of 32 random bytes); the lookup key.
    public var nonce: String
    /// The user it was issued to.
    public var userID: String
    /// The client it was issued to.
    public var clientID: String
    /// When it was issued.
    public var createdAt: Date
    /// When it stops being usable.
    public var expiresAt: Date

    /// Creates an enrolment-nonce record.
    public init(nonce: String, userID: String, clientID: String, createdAt: Date, expiresAt: Date) {
        self.nonce = nonce
        self.userID = userID
        self.clientID = clientID
        self.createdAt = createdAt
        self.expiresAt = expiresAt
    }
}
