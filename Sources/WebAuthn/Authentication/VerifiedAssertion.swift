/// An assertion that passed every check of WebAuthn L3 §7.2, with the outcomes the relying party decides on
/// (`CeremonyPolicy`): the signature counter and the backup state. Only `AuthenticationVerifier` creates one.
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
    /// §7.2 step 22: how the counter compares with the stored one.
    public let signatureCounter: SignatureCounterResult
    /// §6.1.3: how BE and BS compare with the stored flags.
    public let backupState: BackupStateResult

    init(
        credentialID: [UInt8], authenticatorData: AuthenticatorData, signatureCounter: SignatureCounterResult,
        backupState: BackupStateResult
    ) {
        self.credentialID = credentialID
        self.newSignCount = authenticatorData.signCount
        self.userVerified = authenticatorData.flags.userVerified
        self.backupEligible = authenticatorData.flags.backupEligible
        self.backedUp = authenticatorData.flags.backedUp
        self.authenticatorData = authenticatorData
        self.signatureCounter = signatureCounter
        self.backupState = backupState
    }
}
