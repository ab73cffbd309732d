import Crypto
import Foundation

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
        let expected = describe(ceremony.expect)
        var fields: [(String, String?, String)] = []  // (field, expected, actual)
        let actual: String
        var errorCode: WebAuthnError.Code?
        switch ceremony.ceremony {
        case .registration:
            switch Result(catching: { () throws(WebAuthnError) in try registration(ceremony, formats: formats) }) {
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
            switch Result(catching: { () throws(WebAuthnError) in try authentication(ceremony) }) {
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
        expect.ok ? "ok" : "error (\(expect.error ?? "unspecified"))"
    }

    /// Decodes a base64url field of the recording.
    private static func bytes(_ text: String?, _ field: String) throws(WebAuthnError) -> [UInt8] {
        guard let text, let bytes = Base64URL.decode(text) else {
            throw WebAuthnError(.malformedResponse, "\(field) missing or not base64url")
        }
        return bytes
    }

    private static func originPolicy(_ ceremony: RecordedCeremony) -> OriginPolicy {
        OriginPolicy(allowedOrigins: ceremony.origins)
    }

    private static func registration(
        _ ceremony: RecordedCeremony,
        formats: AttestationFormatRegistry
    ) throws(WebAuthnError) -> VerifiedRegistration {
        var anchors = AttestationTrustAnchors()
        if let pems = ceremony.trustAnchorsPEM {
            do {
                anchors.forAnyFormat = try pems.flatMap { pem throws(CryptoError) in
                    try Certificate.certificates(fromPEM: pem)
                }
            } catch {
                throw WebAuthnError(.untrustedAttestation, "trustAnchorsPEM does not parse: \(error)")
            }
        }
        let expectations = RegistrationExpectations(
            challenge: try bytes(ceremony.challenge, "challenge"),
            rpID: ceremony.rpId,
            originPolicy: originPolicy(ceremony),
            userVerificationRequired: ceremony.userVerificationRequired ?? false,
            trustAnchors: anchors,
            verificationTime: try verificationTime(ceremony),
            requireTrustedAttestation: ceremony.trustAnchorsPEM != nil,
            formats: formats)
        let body = ceremony.response.response
        let response = RegistrationResponse(
            id: ceremony.response.id,
            rawID: try bytes(ceremony.response.rawId, "rawId"),
            type: ceremony.response.type,
            clientDataJSON: try bytes(body.clientDataJSON, "clientDataJSON"),
            attestationObject: try bytes(body.attestationObject, "attestationObject"),
            transports: body.transports ?? [])
        return try RegistrationVerifier(expectations: expectations).verify(response)
    }

    private static func authentication(_ ceremony: RecordedCeremony) throws(WebAuthnError) -> VerifiedAssertion {
        let expectations = AuthenticationExpectations(
            challenge: try bytes(ceremony.challenge, "challenge"),
            rpID: ceremony.rpId,
            originPolicy: originPolicy(ceremony),
            userVerificationRequired: ceremony.userVerificationRequired ?? false,
            credentialPublicKey: try COSEKey(bytes: try bytes(ceremony.credentialPublicKey, "credentialPublicKey")),
            storedSignCount: ceremony.storedSignCount ?? 0)
        let body = ceremony.response.response
        var userHandle: [UInt8]?
        if let text = body.userHandle { userHandle = try bytes(text, "userHandle") }
        let response = AuthenticationResponse(
            id: ceremony.response.id,
            rawID: try bytes(ceremony.response.rawId, "rawId"),
            type: ceremony.response.type,
            clientDataJSON: try bytes(body.clientDataJSON, "clientDataJSON"),
            authenticatorData: try bytes(body.authenticatorData, "authenticatorData"),
            signature: try bytes(body.signature, "signature"),
            userHandle: userHandle)
        return try AuthenticationVerifier(expectations: expectations).verify(response)
    }

    /// `verifyAt` (ISO 8601, RFC 3339 §5.6) or the fixed default.
    private static func verificationTime(_ ceremony: RecordedCeremony) throws(WebAuthnError) -> Date {
        guard let text = ceremony.verifyAt else { return defaultVerificationTime }
        guard let date = ISO8601DateFormatter().date(from: text) else {
            throw WebAuthnError(.malformedResponse, "verifyAt \"\(text)\" is not ISO 8601")
        }
        return date
    }
}
