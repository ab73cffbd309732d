import Crypto

/// How an authenticator's model is looked up in metadata and in the trust anchors, one home for the rule: by its
/// AAGUID, unless the AAGUID is all zero, which names no model (WebAuthn L3 §6.5.1: a zero AAGUID is what an
/// authenticator that does not disclose its model, and every U2F authenticator behind `fido-u2f` (§8.6), carries);
/// then by its attestation certificate's key identifier, as FIDO MDS 3.0 `attestationCertificateKeyIdentifiers`
/// spell it (lower-case hex of `Certificate.publicKeyIdentifier`), when there is a certificate.
public enum AuthenticatorModelKey: Hashable, Sendable {
    /// A disclosed AAGUID (16 bytes, not all zero).
    case aaguid([UInt8])
    /// The lower-case hex key identifier of the attestation certificate of an authenticator whose AAGUID is all zero.
    case keyIdentifier(String)

    /// The key for an authenticator with `aaguid` whose attestation certificate is `leaf`; nil when the AAGUID is
    /// all zero and there is no certificate (`none` or self attestation): such an authenticator has no model to find.
    public init?(aaguid: [UInt8], leaf: Certificate?) {
        if Self.isDisclosed(aaguid) {
            self = .aaguid(aaguid)
        } else if let leaf {
            self = .keyIdentifier(Hex.encode(leaf.publicKeyIdentifier))
        } else {
            return nil
        }
    }

    /// The key of a registered authenticator, from what its credential record keeps: its AAGUID, and the key
    /// identifier that `keyIdentifier` returned at its registration; nil when neither names a model.
    public init?(aaguid: [UInt8], storedKeyIdentifier: String?) {
        if Self.isDisclosed(aaguid) {
            self = .aaguid(aaguid)
        } else if let storedKeyIdentifier {
            self = .keyIdentifier(storedKeyIdentifier)
        } else {
            return nil
        }
    }

    /// The key identifier to keep with the credential, so that its model is found again after registration (when
    /// only the credential record is known): set for a `.keyIdentifier` key only.
    public var keyIdentifier: String? {
        if case .keyIdentifier(let identifier) = self { return identifier }
        return nil
    }

    /// Whether `aaguid` names a model: any byte not zero.
    public static func isDisclosed(_ aaguid: [UInt8]) -> Bool {
        aaguid.contains { $0 != 0 }
    }
}
