/// Which attestation statement the software authenticator attaches to a new credential.
public indirect enum AttestationChoice: Sendable, Equatable {
    /// `fmt: "none"` with an empty statement (WebAuthn L3 §8.7), what synced passkeys send.
    case none
    /// `fmt: "packed"` self attestation (WebAuthn L3 §8.2): `alg` and `sig` by the credential key, no `x5c`.
    case packedSelf
    /// `fmt: "packed"` full attestation (WebAuthn L3 §8.2): `alg` and `sig` by the attestation key, `x5c` its
    /// certificate chain. §8.2.1: when the leaf carries `id-fido-gen-ce-aaguid`, it must equal the authenticator's
    /// AAGUID, or the relying party refuses the statement.
    case packedFull(AttestationIdentity)
    /// `fmt: "compound"` (WebAuthn L3 §8.9): attStmt is the array of these choices' statements, each `{fmt, attStmt}`
    /// (a relying party refuses fewer than two, or a compound one among them: tests send those on purpose).
    case compound([AttestationChoice])
}

/// An attestation key and its certificate chain, what a `packed` full attestation (`AttestationChoice.packedFull`)
/// is made with: an authenticator model's batch key in a real authenticator, a test authority's here.
public struct AttestationIdentity: Sendable, Equatable {
    /// The chain in `x5c` order (WebAuthn L3 §8.2: the attestation certificate first, then its issuers), DER.
    public let certificates: [[UInt8]]
    /// The attestation certificate's private key; its algorithm is the statement's `alg`.
    public let key: CredentialSigningKey

    /// The identity of `key`, whose certificate is `certificates[0]`.
    public init(certificates: [[UInt8]], key: CredentialSigningKey) {
        self.certificates = certificates
        self.key = key
    }

    /// Two identities are the same when they present the same chain (the certificate binds the key).
    public static func == (lhs: AttestationIdentity, rhs: AttestationIdentity) -> Bool {
        lhs.certificates == rhs.certificates
    }
}
