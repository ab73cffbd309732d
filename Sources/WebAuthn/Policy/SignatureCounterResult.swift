/// How an assertion's signature counter compares with the stored one (WebAuthn L3 §7.2 step 22, §6.1.1). The
/// verifier reports it; `CeremonyPolicy` decides what to do with it.
public enum SignatureCounterResult: Sendable, Hashable {
    /// Both counters are 0: the authenticator does not count (many passkeys never do), so there is nothing to judge.
    case notCounted
    /// The new counter is greater than the stored one.
    case increased
    /// The new counter is not greater than the stored one (and not both 0): a signal that the authenticator may be
    /// cloned (§6.1.1).
    case notIncreased(stored: UInt32, received: UInt32)

    /// Compares `received` (from the authenticator data) with `stored` (from the credential record).
    public init(stored: UInt32, received: UInt32) {
        // §7.2 step 22: 0 on both sides means no counter; otherwise the new one must exceed the stored one.
        if stored == 0 && received == 0 {
            self = .notCounted
        } else if received > stored {
            self = .increased
        } else {
            self = .notIncreased(stored: stored, received: received)
        }
    }
}
