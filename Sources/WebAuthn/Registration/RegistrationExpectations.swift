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
    /// The attestation formats accepted.
    public var formats: AttestationFormatRegistry

    /// Creates expectations; by default UV is not required, every algorithm is allowed and nothing is
    /// trusted (the trust outcome is reported; `CeremonyPolicy` decides on it).
    public init(
        challenge: [UInt8],
        rpID: RelyingPartyID,
        originPolicy: OriginPolicy,
        userVerificationRequired: Bool = false,
        allowedAlgorithms: [COSEAlgorithm] = COSEAlgorithm.allCases,
        trustAnchors: AttestationTrustAnchors = .init(),
        verificationTime: Date,
        formats: AttestationFormatRegistry = .standard
    ) {
        self.challenge = challenge
        self.rpID = rpID
        self.originPolicy = originPolicy
        self.userVerificationRequired = userVerificationRequired
        self.allowedAlgorithms = allowedAlgorithms
        self.trustAnchors = trustAnchors
        self.verificationTime = verificationTime
        self.formats = formats
    }
}
