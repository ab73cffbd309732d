/// How an assertion's backup flags compare with the credential record (WebAuthn L3 §6.1.3, §7.2 step 19). The
/// verifier reports it; `CeremonyPolicy` decides what to do with it.
public enum BackupStateResult: Sendable, Hashable {
    /// The backup flags the relying party stored for the credential (BE and BS at registration or last use).
    public struct Stored: Sendable, Hashable {
        /// BE: the credential may be backed up.
        public var backupEligible: Bool
        /// BS: the credential was backed up.
        public var backedUp: Bool

        /// Creates the stored flags.
        public init(backupEligible: Bool, backedUp: Bool) {
            self.backupEligible = backupEligible
            self.backedUp = backedUp
        }
    }

    /// The relying party gave no stored flags (a recording without a credential record's flags): nothing compared.
    case notCompared
    /// BE and BS are as stored.
    case unchanged
    /// BS changed, BE did not: informational (§6.1.3: a credential's backup state may change over its life); the
    /// relying party stores the new value.
    case backedUpChanged(backedUp: Bool)
    /// BE differs from the stored BE. BE is fixed for a credential's life (§6.1.3), so another authenticator answered.
    case eligibilityChanged(stored: Bool, received: Bool)

    /// Compares the received `flags` with `stored`.
    public init(stored: Stored?, flags: AuthenticatorData.Flags) {
        guard let stored else {
            self = .notCompared
            return
        }
        if flags.backupEligible != stored.backupEligible {
            self = .eligibilityChanged(stored: stored.backupEligible, received: flags.backupEligible)
        } else if flags.backedUp != stored.backedUp {
            self = .backedUpChanged(backedUp: flags.backedUp)
        } else {
            self = .unchanged
        }
    }
}
