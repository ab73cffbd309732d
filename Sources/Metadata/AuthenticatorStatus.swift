/// An `AuthenticatorStatus` value of a FIDO MDS3 status report (FIDO Metadata Service v3.0 §3.1.4). A raw
/// string wrapper, not an enum: a value the FIDO Alliance adds later is kept as it is spelled (and counts as
/// neither a compromise nor a certification).
package struct AuthenticatorStatus: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
    /// The status as MDS spells it, e.g. `FIDO_CERTIFIED_L1`.
    package let rawValue: String

    /// Wraps `rawValue` as given.
    package init(rawValue: String) { self.rawValue = rawValue }

    /// The raw value.
    package var description: String { rawValue }

    /// The authenticator is not FIDO certified.
    package static let notFIDOCertified = Self(rawValue: "NOT_FIDO_CERTIFIED")
    /// FIDO certified, level unspecified (counts as L1).
    package static let fidoCertified = Self(rawValue: "FIDO_CERTIFIED")
    /// Malware can bypass user verification: a compromise.
    package static let userVerificationBypass = Self(rawValue: "USER_VERIFICATION_BYPASS")
    /// An attestation key of this authenticator is compromised: a compromise.
    package static let attestationKeyCompromise = Self(rawValue: "ATTESTATION_KEY_COMPROMISE")
    /// Authentication keys can be extracted remotely: a compromise.
    package static let userKeyRemoteCompromise = Self(rawValue: "USER_KEY_REMOTE_COMPROMISE")
    /// Authentication keys can be extracted with physical access: a compromise.
    package static let userKeyPhysicalCompromise = Self(rawValue: "USER_KEY_PHYSICAL_COMPROMISE")
    /// A firmware update is available.
    package static let updateAvailable = Self(rawValue: "UPDATE_AVAILABLE")
    /// The FIDO Alliance revoked the certification: a compromise.
    package static let revoked = Self(rawValue: "REVOKED")
    /// The vendor submitted a self-assertion.
    package static let selfAssertionSubmitted = Self(rawValue: "SELF_ASSERTION_SUBMITTED")
    /// Certified at level 1.
    package static let fidoCertifiedL1 = Self(rawValue: "FIDO_CERTIFIED_L1")
    /// Certified at level 1+.
    package static let fidoCertifiedL1plus = Self(rawValue: "FIDO_CERTIFIED_L1plus")
    /// Certified at level 2.
    package static let fidoCertifiedL2 = Self(rawValue: "FIDO_CERTIFIED_L2")
    /// Certified at level 2+.
    package static let fidoCertifiedL2plus = Self(rawValue: "FIDO_CERTIFIED_L2plus")
    /// Certified at level 3.
    package static let fidoCertifiedL3 = Self(rawValue: "FIDO_CERTIFIED_L3")
    /// Certified at level 3+.
    package static let fidoCertifiedL3plus = Self(rawValue: "FIDO_CERTIFIED_L3plus")

    /// Every value FIDO MDS 3.0 defines, in the specification's order.
    package static let known: [AuthenticatorStatus] = [
        .notFIDOCertified, .fidoCertified, .userVerificationBypass, .attestationKeyCompromise,
        .userKeyRemoteCompromise, .userKeyPhysicalCompromise, .updateAvailable, .revoked, .selfAssertionSubmitted,
        .fidoCertifiedL1, .fidoCertifiedL1plus, .fidoCertifiedL2, .fidoCertifiedL2plus, .fidoCertifiedL3,
        .fidoCertifiedL3plus,
    ]

    /// Whether the status means the authenticator must not be trusted: exactly `ATTESTATION_KEY_COMPROMISE`,
    /// `USER_VERIFICATION_BYPASS`, `USER_KEY_REMOTE_COMPROMISE`, `USER_KEY_PHYSICAL_COMPROMISE` and `REVOKED`
    /// (FIDO MDS3 §3.1.4 describes each as a compromise or withdrawn certification).
    package var isCompromise: Bool {
        self == .attestationKeyCompromise || self == .userVerificationBypass || self == .userKeyRemoteCompromise
            || self == .userKeyPhysicalCompromise || self == .revoked
    }

    /// The certification level this status states, nil for any other status (`FIDO_CERTIFIED` is L1).
    package var certificationLevel: CertificationLevel? {
        self == .fidoCertified ? .l1 : CertificationLevel(rawValue: rawValue)
    }
}
