/// What the registration verifier concluded about an attestation's trust path (WebAuthn L3 §7.1 steps 23–24).
/// The verifier reports it; `CeremonyPolicy` decides whether the relying party accepts it.
public enum AttestationTrustResult: Sendable, Hashable {
    /// The trust path chains to one of the format's trust anchors at the verification time (§7.1 step 24).
    case trusted
    /// Self attestation (§6.5.4): the credential key signed its own statement; there is no path to judge.
    case selfAttestation
    /// No attestation (§6.5.4, the `none` format): there is nothing to judge.
    case noAttestation
    /// A trust path that does not chain to an anchor, or a format without anchors: why, for the log.
    case untrusted(reason: String)

    /// Whether the path chained to an anchor.
    public var isTrusted: Bool { self == .trusted }
}
