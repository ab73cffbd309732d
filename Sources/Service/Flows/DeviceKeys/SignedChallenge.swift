/// A device's answer to one of its challenges, as an endpoint parsed it: the challenge id and the signature bytes
/// (ECDSA P-256 with SHA-256, X9.62 DER) over the challenge document (`DeviceKeyApproval`, `DeviceProof.signature`).
package struct SignedChallenge: Sendable, Equatable {
    /// `challenge_id`.
    package let challengeID: String
    /// `signature`, base64url-decoded.
    package let signature: [UInt8]

    /// Creates the value from its stored properties.
    package init(challengeID: String, signature: [UInt8]) {
        self.challengeID = challengeID
        self.signature = signature
    }
}
