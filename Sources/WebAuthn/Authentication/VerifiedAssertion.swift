/// An assertion that passed every step of WebAuthn L3 §7.2. Only `AuthenticationVerifier` creates one.
public struct VerifiedAssertion: Sendable {
    /// The credential ID used.
    public let credentialID: [UInt8]
    /// The counter to store (§7.2 step 23).
    public let newSignCount: UInt32
    /// UV flag.
    public let userVerified: Bool
    /// BE flag.
    public let backupEligible: Bool
    /// BS flag (the RP may track changes of backup state, §7.2 step 19).
    public let backedUp: Bool
    /// The authenticator data, for anything else the RP wants (extensions).
    public let authenticatorData: AuthenticatorData

    init(credentialID: [UInt8], authenticatorData: AuthenticatorData) {
        self.credentialID = credentialID
        self.newSignCount = authenticatorData.signCount
        self.userVerified = authenticatorData.flags.userVerified
        self.backupEligible = authenticatorData.flags.backupEligible
        self.backedUp = authenticatorData.flags.backedUp
        self.authenticatorData = authenticatorData
    }
}
