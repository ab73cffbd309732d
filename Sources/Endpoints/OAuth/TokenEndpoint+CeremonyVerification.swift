import Foundation
import JSON
import Replay
import Service
import WebAuthn

extension TokenEndpoint {
    /// The one place a sign-up's credential is judged (WebAuthn L3 §7.1): its members decoded, the verifier, then the
    /// attestation trust as `CeremonyPolicy` decides (§7.1 step 24). In record mode the verdict is recorded from
    /// these very inputs (`CeremonyRecorder`), accepted or refused, before it is acted on.
    package func verifiedRegistration(
        _ credential: Result<PublicKeyCredentialJSON, WebAuthnError>, sent: JSONValue,
        expectations: RegistrationExpectations
    ) throws(WebAuthnError) -> VerifiedRegistration {
        let policy = ceremonyPolicy
        let outcome = Result { () throws(WebAuthnError) -> VerifiedRegistration in
            let verified = try RegistrationVerifier(expectations: expectations).verify(
                try credential.get().registration())
            try policy.evaluate(verified).get()
            return verified
        }
        context.recorder?.record("registration", refusal: outcome.refusalCode, at: expectations.verificationTime) {
            name in
            CeremonyRecording.registration(name: name, expectations: expectations, response: sent, outcome: outcome)
        }
        return try outcome.get()
    }

    /// The one place a login's assertion is judged (WebAuthn L3 §7.2): its members decoded, the stored COSE_Key
    /// parsed, the verifier, then the counter and backup state as `CeremonyPolicy` decides (§7.2 step 22, §6.1.3).
    /// `credentialID` is the stored credential's (§7.2 step 5); it was found by the `rawId` sent, so a recording need
    /// not hold it. In record mode the verdict is recorded from these very inputs, accepted or refused.
    package func verifiedAssertion(
        _ assertion: Result<AuthenticationResponse, WebAuthnError>, sent: JSONValue,
        side: CeremonyRecording.AuthenticationSide, credentialID: [UInt8], now: Date
    ) throws(WebAuthnError) -> VerifiedAssertion {
        let policy = ceremonyPolicy
        let outcome = Result { () throws(WebAuthnError) -> VerifiedAssertion in
            let response = try assertion.get()
            var expectations = try side.expectations()
            expectations.credentialID = credentialID
            let verified = try AuthenticationVerifier(expectations: expectations).verify(response)
            try policy.evaluate(verified).get()
            return verified
        }
        context.recorder?.record("authentication", refusal: outcome.refusalCode, at: now) { name in
            CeremonyRecording.authentication(name: name, side: side, verifyAt: now, response: sent, outcome: outcome)
        }
        return try outcome.get()
    }
}

extension Result where Failure == WebAuthnError {
    /// The refusal's code, `nil` when the ceremony verified.
    fileprivate var refusalCode: WebAuthnError.Code? {
        if case .failure(let error) = self { return error.code }
        return nil
    }
}
