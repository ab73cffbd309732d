import Crypto

/// The roots an RP trusts for attestation (WebAuthn L3 §7.1 step 23: "obtain a list of acceptable trust anchors …
/// for that attestation type and attestation statement format … from a trusted source or from policy", for example
/// the FIDO Metadata Service): per format, per authenticator model (AAGUID, or the attestation certificate's key
/// identifier for U2F authenticators, which have no AAGUID), and the operator's own.
public struct AttestationTrustAnchors: Sendable {
    /// Roots for specific `fmt` identifiers.
    public var byFormat: [String: [Certificate]]
    /// Roots for any format without its own entry.
    public var forAnyFormat: [Certificate]
    /// Roots for an authenticator model, keyed by its AAGUID (16 bytes): its metadata statement's
    /// `attestationRootCertificates` (FIDO Metadata Statement §4, MDS 3.0). Never consulted for the all-zero AAGUID,
    /// which names no model.
    public var byAAGUID: [[UInt8]: [Certificate]]
    /// Roots for a U2F authenticator model, keyed by the lower-case hex key identifier of its attestation
    /// certificate (`Certificate.publicKeyIdentifier`, as MDS 3.0 `attestationCertificateKeyIdentifiers` spell it);
    /// consulted for a credential with the all-zero AAGUID (the `fido-u2f` format's, WebAuthn L3 §8.6).
    public var byKeyIdentifier: [String: [Certificate]]
    /// Roots for every attestation whatever its format and model: the operator's (`passkeys.attestation_root_files`,
    /// e.g. an enterprise's own CA for `enterprise` attestation).
    public var extra: [Certificate]

    /// Creates a set of anchors; with no arguments, nothing is trusted.
    public init(
        byFormat: [String: [Certificate]] = [:], forAnyFormat: [Certificate] = [],
        byAAGUID: [[UInt8]: [Certificate]] = [:], byKeyIdentifier: [String: [Certificate]] = [:],
        extra: [Certificate] = []
    ) {
        self.byFormat = byFormat
        self.forAnyFormat = forAnyFormat
        self.byAAGUID = byAAGUID
        self.byKeyIdentifier = byKeyIdentifier
        self.extra = extra
    }

    /// The roots for `format` alone (empty: no chain can be judged trustworthy by format).
    public func roots(for format: String) -> [Certificate] {
        byFormat[format] ?? forAnyFormat
    }

    /// The roots a trust path of `format` from the authenticator `aaguid`, whose attestation certificate is `leaf`,
    /// may chain to (WebAuthn L3 §7.1 step 23): the format's, the model's (by AAGUID, or by `leaf`'s key identifier
    /// when the AAGUID is all zero) and the operator's extra roots.
    public func roots(for format: String, aaguid: [UInt8], leaf: Certificate?) -> [Certificate] {
        var roots = roots(for: format)
        switch AuthenticatorModelKey(aaguid: aaguid, leaf: leaf) {
        case .aaguid(let aaguid): roots += byAAGUID[aaguid] ?? []
        case .keyIdentifier(let identifier): roots += byKeyIdentifier[identifier] ?? []
        case nil: break
        }
        return roots + extra
    }
}
