import Foundation

/// What the stored challenge says an approval must match, plus the instant to judge expiry at.
public struct ApprovalExpectations: Sendable {
    /// The challenge id the approval was posted for.
    public let challengeID: String
    /// The device key id from the request path, whose stored key verifies the signature.
    public let keyID: String
    /// The subject of the access token that posted the approval.
    public let subject: String
    /// The action stored with the challenge; its canonical hash must equal `action_sha256`.
    public let action: DeviceAction
    /// The current time (a parameter: this module reads no clock).
    public let now: Date

    /// Collects the expectations.
    public init(challengeID: String, keyID: String, subject: String, action: DeviceAction, now: Date) {
        self.challengeID = challengeID
        self.keyID = keyID
        self.subject = subject
        self.action = action
        self.now = now
    }
}
