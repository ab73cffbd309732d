/// Which attestation statement the software authenticator attaches to a new credential.
public enum AttestationChoice: String, Sendable, CaseIterable {
    /// `fmt: "none"` with an empty statement (WebAuthn L3 §8.7), what synced passkeys send.
    case none
    /// `fmt: "packed"` self attestation (WebAuthn L3 §8.2): `alg` and `sig` by the credential key, no `x5c`.
    case packedSelf
}
