/// The relying party's decision on the outcomes the verifiers report as values (signature counter, backup state,
/// attestation trust), in the shape of swift-certificates' policy evaluation: each outcome meets the policy or fails
/// it with the error to answer. The one place these decisions are made: the token endpoint and `passkeyd replay`
/// both evaluate a verified ceremony here.
public struct CeremonyPolicy: Sendable {
    /// The decision on one outcome or one ceremony.
    public enum Decision: Sendable, Equatable {
        /// The outcome is acceptable.
        case meetsPolicy
        /// The outcome is refused, with the error that says why.
        case failsToMeetPolicy(WebAuthnError)

        /// Throws the refusal, if any.
        public func get() throws(WebAuthnError) {
            if case .failsToMeetPolicy(let error) = self { throw error }
        }
    }

    /// Refuse attestations that do not chain to a trust anchor (self and none attestation included); otherwise
    /// the trust outcome is only reported.
    public var requireTrustedAttestation: Bool

    /// The default policy: counter regressions and BE changes are refused, attestation trust is reported.
    public init(requireTrustedAttestation: Bool = false) {
        self.requireTrustedAttestation = requireTrustedAttestation
    }

    /// A registration: its attestation trust.
    public func evaluate(_ registration: VerifiedRegistration) -> Decision {
        evaluate(registration.attestationTrust)
    }

    /// An assertion: its counter, then its backup state.
    public func evaluate(_ assertion: VerifiedAssertion) -> Decision {
        let counter = evaluate(assertion.signatureCounter)
        guard counter == .meetsPolicy else { return counter }
        return evaluate(assertion.backupState)
    }

    /// WebAuthn L3 §7.2 step 22: a counter that did not increase may mean a cloned authenticator; this relying
    /// party refuses the ceremony (the specification leaves the choice to it).
    public func evaluate(_ counter: SignatureCounterResult) -> Decision {
        switch counter {
        case .notCounted, .increased:
            return .meetsPolicy
        case .notIncreased(let stored, let received):
            return .failsToMeetPolicy(
                WebAuthnError(.counterNotIncreased, "signCount \(received) is not greater than stored \(stored)"))
        }
    }

    /// WebAuthn L3 §6.1.3: BE is fixed for a credential's life, so a change is refused; a BS change is informational.
    public func evaluate(_ backupState: BackupStateResult) -> Decision {
        switch backupState {
        case .notCompared, .unchanged, .backedUpChanged:
            return .meetsPolicy
        case .eligibilityChanged(let stored, let received):
            return .failsToMeetPolicy(
                WebAuthnError(.backupEligibilityChanged, "BE was \(stored), the assertion says \(received)"))
        }
    }

    /// WebAuthn L3 §7.1 step 24: when trusted attestation is required, only a path to an anchor is accepted.
    public func evaluate(_ trust: AttestationTrustResult) -> Decision {
        guard requireTrustedAttestation else { return .meetsPolicy }
        switch trust {
        case .trusted:
            return .meetsPolicy
        case .selfAttestation:
            return .failsToMeetPolicy(WebAuthnError(.untrustedAttestation, "self attestation has no trust path"))
        case .noAttestation:
            return .failsToMeetPolicy(WebAuthnError(.untrustedAttestation, "no attestation: no trust path"))
        case .untrusted(let reason):
            return .failsToMeetPolicy(WebAuthnError(.untrustedAttestation, reason))
        }
    }
}
