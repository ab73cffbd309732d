import Foundation

/// What the relying party expects of a registration ceremony (WebAuthn L3 §7.1 inputs: the options it
/// sent and its policy).
public struct RegistrationExpectations: Sendable {
    /// The challenge sent in PublicKeyCredentialCreationOptions.
    public var challenge: [UInt8]
    /// The RP ID the credential must be scoped to, with its hash.
    public var rpID: RelyingPartyID
    /// The origins the ceremony may come from.
    public var originPolicy: OriginPolicy
    /// Whether the RP required user verification.
    public var userVerificationRequired: Bool
    /// The algorithms offered in pubKeyCredParams.
    public var allowedAlgorithms: [COSEAlgorithm]
    /// Roots for attestation chains; formats without roots are never judged trusted.
    public var trustAnchors: AttestationTrustAnchors
    /// The instant to judge certificate validity at.
    public var verificationTime: Date
    /// Refuse attestations that do not chain to a trust anchor (otherwise the outcome is reported).
    public var requireTrustedAttestation: Bool
    /// The attestation formats accepted.
    public var formats: AttestationFormatRegistry

    /// Creates expectations; by default UV is not required, every algorithm is allowed, nothing is
    /// trusted and untrusted attestation is reported rather than refused.
    public init(
        challenge: [UInt8],
        rpID: RelyingPartyID,
        originPolicy: OriginPolicy,
        userVerificationRequired: Bool = false,
        allowedAlgorithms: [COSEAlgorithm] = COSEAlgorithm.allCases,
        trustAnchors: AttestationTrustAnchors = .init(),
        verificationTime: Date,
        requireTrustedAttestation: Bool = false,
        formats: AttestationFormatRegistry = .standard
    ) {
        self.challenge = challenge
        self.rpID = rpID
        self.originPolicy = originPolicy
        self.userVerificationRequired = userVerificationRequired
        self.allowedAlgorithms = allowedAlgorithms
        self.trustAnchors = trustAnchors
        self.verificationTime = verificationTime
        self.requireTrustedAttestation = requireTrustedAttestation
        self.formats = formats
    }
}
