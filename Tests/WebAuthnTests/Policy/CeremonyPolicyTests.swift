import Testing

@testable import WebAuthn

@Suite("CeremonyPolicy and the outcomes it decides on")
struct CeremonyPolicyTests {
    @Test(
        "§7.2 step 22: the counter comparison",
        arguments: [
            (UInt32(0), UInt32(0), SignatureCounterResult.notCounted),
            (0, 1, .increased),
            (4, 5, .increased),
            (4, 4, .notIncreased(stored: 4, received: 4)),
            (4, 0, .notIncreased(stored: 4, received: 0)),
            (UInt32.max, UInt32.max, .notIncreased(stored: .max, received: .max)),
        ])
    func counterComparison(stored: UInt32, received: UInt32, expected: SignatureCounterResult) {
        #expect(SignatureCounterResult(stored: stored, received: received) == expected)
    }

    @Test("§6.1.3: the backup-state comparison")
    func backupComparison() {
        func result(stored: (Bool, Bool)?, flags: UInt8) -> BackupStateResult {
            BackupStateResult(
                stored: stored.map { BackupStateResult.Stored(backupEligible: $0.0, backedUp: $0.1) },
                flags: AuthenticatorData.Flags(rawValue: flags))
        }
        let be: UInt8 = 0x08
        let bs: UInt8 = 0x10
        #expect(result(stored: nil, flags: be | bs) == .notCompared)
        #expect(result(stored: (true, true), flags: be | bs) == .unchanged)
        #expect(result(stored: (false, false), flags: 0) == .unchanged)
        #expect(result(stored: (true, false), flags: be | bs) == .backedUpChanged(backedUp: true))
        #expect(result(stored: (true, true), flags: be) == .backedUpChanged(backedUp: false))
        #expect(result(stored: (false, false), flags: be) == .eligibilityChanged(stored: false, received: true))
        // BE and BS both changed: BE decides.
        #expect(result(stored: (true, true), flags: 0) == .eligibilityChanged(stored: true, received: false))
    }

    @Test("the default policy refuses a counter that did not increase, and accepts the rest")
    func counterDecisions() {
        let policy = CeremonyPolicy()
        #expect(policy.evaluate(SignatureCounterResult.notCounted) == .meetsPolicy)
        #expect(policy.evaluate(SignatureCounterResult.increased) == .meetsPolicy)
        #expect(
            policy.evaluate(SignatureCounterResult.notIncreased(stored: 4, received: 3))
                == .failsToMeetPolicy(WebAuthnError(.counterNotIncreased, "")))
    }

    @Test("the default policy refuses a BE change; a BS change is informational")
    func backupDecisions() {
        let policy = CeremonyPolicy()
        #expect(policy.evaluate(BackupStateResult.notCompared) == .meetsPolicy)
        #expect(policy.evaluate(BackupStateResult.unchanged) == .meetsPolicy)
        #expect(policy.evaluate(BackupStateResult.backedUpChanged(backedUp: false)) == .meetsPolicy)
        #expect(
            policy.evaluate(BackupStateResult.eligibilityChanged(stored: true, received: false))
                == .failsToMeetPolicy(WebAuthnError(.backupEligibilityChanged, "")))
    }

    @Test("attestation trust is reported by default and only a trusted path meets a policy that requires it")
    func trustDecisions() {
        let outcomes: [AttestationTrustResult] = [
            .trusted, .selfAttestation, .noAttestation, .untrusted(reason: "no anchors"),
        ]
        for outcome in outcomes {
            #expect(CeremonyPolicy().evaluate(outcome) == .meetsPolicy, "\(outcome)")
            let required = CeremonyPolicy(requireTrustedAttestation: true).evaluate(outcome)
            #expect(
                required
                    == (outcome.isTrusted
                        ? .meetsPolicy : .failsToMeetPolicy(WebAuthnError(.untrustedAttestation, ""))),
                "\(outcome)")
        }
    }

    @Test("a decision throws its refusal, and nothing when it meets the policy")
    func decisionGet() throws {
        try CeremonyPolicy.Decision.meetsPolicy.get()
        #expect(throws: WebAuthnError(.counterNotIncreased, "")) {
            try CeremonyPolicy.Decision.failsToMeetPolicy(WebAuthnError(.counterNotIncreased, "")).get()
        }
    }
}
