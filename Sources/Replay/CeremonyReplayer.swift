import Crypto
import Foundation
import WebAuthn

/// Replays recorded ceremonies through exactly the verifiers the server runs, building expectations
/// from the file: `verifyAt` is the verification time, `trustAnchorsPEM` the trust anchors (and then
/// trusted attestation is required); without anchors attestation is judged without chain validation.
public enum CeremonyReplayer {
    /// The verification time used when a recording has no `verifyAt` (the pure stack reads no clock;
    /// without anchors no certificate validity is judged, so the instant only needs to be fixed).
    public static let defaultVerificationTime = Date(timeIntervalSince1970: 1_704_067_200)  // 2024-01-01T00:00:00Z

    /// Replays one ceremony and compares every field present in `expect`.
    public static func replay(_ ceremony: RecordedCeremony, formats: AttestationFormatRegistry = .standard)
        -> ReplayOutcome
    {
        replay(PreparedCeremony(ceremony, formats: formats))
    }

    /// Replays a prepared ceremony and compares every field present in `expect`.
    public static func replay(_ prepared: PreparedCeremony) -> ReplayOutcome {
        let ceremony = prepared.recording
        let expected = describe(ceremony.expect)
        var fields: [(String, String?, String)] = []  // (field, expected, actual)
        let actual: String
        var errorCode: WebAuthnError.Code?
        switch ceremony.ceremony {
        case .registration:
            switch Result(catching: { () throws(WebAuthnError) in try prepared.verifyRegistration() }) {
            case .success(let verified):
                actual = "ok fmt=\(verified.format)"
                let expect = ceremony.expect
                fields = [
                    ("fmt", expect.fmt, verified.format),
                    ("credentialId", expect.credentialId, Base64URL.encode(verified.credentialID)),
                    ("aaguid", expect.aaguid?.lowercased(), verified.aaguidString),
                    ("signCount", expect.signCount.map(String.init), String(verified.signCount)),
                    (
                        "credentialPublicKey", expect.credentialPublicKey,
                        Base64URL.encode(verified.credentialPublicKey.rawBytes)
                    ),
                    ("userVerified", expect.userVerified.map(String.init), String(verified.userVerified)),
                    ("backupEligible", expect.backupEligible.map(String.init), String(verified.backupEligible)),
                    ("backedUp", expect.backedUp.map(String.init), String(verified.backedUp)),
                ]
            case .failure(let error):
                actual = "error \(error.code.rawValue): \(error.reason)"
                errorCode = error.code
            }
        case .authentication:
            switch Result(catching: { () throws(WebAuthnError) in try prepared.verifyAuthentication() }) {
            case .success(let verified):
                actual = "ok newSignCount=\(verified.newSignCount)"
                let expect = ceremony.expect
                fields = [
                    ("newSignCount", expect.newSignCount.map(String.init), String(verified.newSignCount)),
                    ("userVerified", expect.userVerified.map(String.init), String(verified.userVerified)),
                ]
            case .failure(let error):
                actual = "error \(error.code.rawValue): \(error.reason)"
                errorCode = error.code
            }
        }
        let succeeded = actual.hasPrefix("ok")
        var mismatches: [String] = []
        if succeeded != ceremony.expect.ok {
            mismatches.append("outcome: expected \(expected), got \(actual)")
        } else if let want = ceremony.expect.errorCode, let errorCode, want != errorCode {
            mismatches.append("errorCode: expected \(want.rawValue), got \(actual)")
        } else if succeeded {
            for (field, want, got) in fields {
                guard let want, want != got else { continue }
                mismatches.append("\(field): expected \(want), got \(got)")
            }
        }
        return ReplayOutcome(
            name: ceremony.name, passed: mismatches.isEmpty, expected: expected, actual: actual,
            errorCode: errorCode, mismatches: mismatches)
    }

    private static func describe(_ expect: RecordedCeremony.Expectation) -> String {
        expect.ok ? "ok" : "error (\(expect.errorCode?.rawValue ?? expect.error ?? "unspecified"))"
    }
}
