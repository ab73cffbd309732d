/// A device's approval of one action, after every check passed. Only `ApprovalVerifier` creates one,
/// and the action-token minter should accept nothing else.
public struct VerifiedApproval: Sendable {
    /// The challenge document that was signed.
    public let document: ChallengeDocument
    /// The approved action; its `canonicalBytes` become the action token's `authorization_details` element.
    public let action: DeviceAction
    /// The device signature (X9.62 DER) exactly as received, e.g. for the audit log.
    public let rawSignature: [UInt8]

    /// Internal: only the verifier constructs approvals.
    init(document: ChallengeDocument, action: DeviceAction, rawSignature: [UInt8]) {
        self.document = document
        self.action = action
        self.rawSignature = rawSignature
    }
}
