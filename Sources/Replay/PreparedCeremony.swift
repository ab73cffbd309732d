import Crypto
import Foundation
import WebAuthn

/// A recorded ceremony with the relying party's side built once, as a server holds it before the
/// response arrives: the challenge it issued, its origin policy, its parsed trust anchors and the
/// verification time. The response is read as the token endpoint reads `authn_response`, by
/// `PublicKeyCredentialJSON`: its shape once here (as the endpoint's JSON body is parsed once), and each
/// `verify…` call then does exactly what the server does per request after that: decode the response's
/// base64url members, parse the stored COSE key (authentication), and run the verifier.
///
/// A malformed response (a member missing, of the wrong JSON type, not base64url) is kept as its error and
/// thrown by every verification, after the relying party's side: a refused ceremony, as at the endpoint.
///
/// A relying-party side that cannot be built (a challenge that is not base64url, anchors that do not
/// parse) is kept as its error and thrown by every verification, in the order the checks had before.
///
/// A class, immutable after `init`: a benchmark loop over an array of structs copied each recording (dozens
/// of strings, each retained and released) on every verification, which is no part of what a server does.
public final class PreparedCeremony: Sendable {
    /// The recording.
    public let recording: RecordedCeremony
    /// The recording's `expect`, decoded for `replaysAsRecorded()`.
    private let check: RecordedOutcomeCheck
    /// The decision on the verifiers' outcomes, the token endpoint's: trusted attestation is required when the
    /// recording names trust anchors.
    private let policy: CeremonyPolicy

    /// The response's shape, read once, or why it is malformed.
    private let credential: Result<PublicKeyCredentialJSON, WebAuthnError>
    /// What a server holds before a registration response arrives.
    private let registrationExpectations: Result<RegistrationExpectations, WebAuthnError>
    /// What a server holds before an assertion arrives: the stored COSE_Key stays bytes, as in a
    /// credential record, and is parsed per request (as py_webauthn does). The RP ID and its hash are
    /// built once, as a server builds them from its configuration.
    private let authenticationSide: Result<StoredAuthenticationSide, WebAuthnError>

    /// The relying party's side of an authentication, minus the key it parses per request. A class, so
    /// reading it per verification takes one reference rather than a copy of each field.
    private final class StoredAuthenticationSide: Sendable {
        let challenge: [UInt8]
        let rpID: RelyingPartyID
        let originPolicy: OriginPolicy
        let storedKey: Result<[UInt8], WebAuthnError>
        let userHandle: [UInt8]?

        init(
            challenge: [UInt8], rpID: RelyingPartyID, originPolicy: OriginPolicy,
            storedKey: Result<[UInt8], WebAuthnError>, userHandle: [UInt8]?
        ) {
            self.challenge = challenge
            self.rpID = rpID
            self.originPolicy = originPolicy
            self.storedKey = storedKey
            self.userHandle = userHandle
        }
    }

    /// Builds the relying party's side of `recording` once.
    public init(_ recording: RecordedCeremony, formats: AttestationFormatRegistry = .standard) {
        self.recording = recording
        self.check = RecordedOutcomeCheck(recording.expect)
        self.policy = CeremonyPolicy(requireTrustedAttestation: recording.trustAnchorsPEM != nil)
        self.credential = Result { () throws(WebAuthnError) in try PublicKeyCredentialJSON(json: recording.response) }
        let policy = OriginPolicy(
            allowedOrigins: recording.origins, allowsCrossOrigin: recording.allowCrossOrigin ?? false,
            allowedTopOrigins: recording.topOrigins ?? [])
        switch recording.ceremony {
        case .registration:
            registrationExpectations = Result { () throws(WebAuthnError) in
                try Self.registrationExpectations(recording, originPolicy: policy, formats: formats)
            }
            authenticationSide = .failure(WebAuthnError(.malformedResponse, "not an authentication"))
        case .authentication:
            registrationExpectations = .failure(WebAuthnError(.malformedResponse, "not a registration"))
            authenticationSide = Result { () throws(WebAuthnError) in
                StoredAuthenticationSide(
                    challenge: try Self.bytes(recording.challenge, "challenge"),
                    rpID: RelyingPartyID(recording.rpId),
                    originPolicy: policy,
                    storedKey: Result { () throws(WebAuthnError) in
                        try Self.bytes(recording.credentialPublicKey, "credentialPublicKey")
                    },
                    userHandle: try recording.userHandle.map { text throws(WebAuthnError) in
                        try Self.bytes(text, "userHandle")
                    })
            }
        }
    }

    /// Verifies the response once and tells whether the outcome is the recorded one in every field the
    /// recording names (the same verdict as `CeremonyReplayer.replay(_:)`'s `passed`, without its text).
    public func replaysAsRecorded() -> Bool {
        switch recording.ceremony {
        case .registration: check.matches(Result { () throws(WebAuthnError) in try verifyRegistration() })
        case .authentication: check.matches(Result { () throws(WebAuthnError) in try verifyAuthentication() })
        }
    }

    /// Verifies the recorded registration response (WebAuthn L3 §7.1) from its raw base64url fields, then
    /// decides on its attestation trust as the token endpoint does (`CeremonyPolicy`).
    public func verifyRegistration() throws(WebAuthnError) -> VerifiedRegistration {
        let expectations = try registrationExpectations.get()
        let response = try credential.get().registration()
        let verified = try RegistrationVerifier(expectations: expectations).verify(response)
        try policy.evaluate(verified).get()
        return verified
    }

    /// Verifies the recorded assertion (WebAuthn L3 §7.2) from its raw base64url fields, parsing the
    /// stored COSE_Key as a server reading its credential record would, through the verifier the token
    /// endpoint calls and in its order: the response's members are decoded before the stored key is parsed. The
    /// counter and the backup state (when the recording holds the stored flags) are then decided on as the endpoint does
    /// (`CeremonyPolicy`).
    public func verifyAuthentication() throws(WebAuthnError) -> VerifiedAssertion {
        let side = try authenticationSide.get()
        let storedKey = try side.storedKey.get()
        let assertion = try credential.get().authentication()
        let expectations = AuthenticationExpectations(
            challenge: side.challenge,
            rpID: side.rpID,
            originPolicy: side.originPolicy,
            userVerificationRequired: recording.userVerificationRequired ?? false,
            credentialPublicKey: try COSEKey(bytes: storedKey),
            storedSignCount: recording.storedSignCount ?? 0,
            storedBackupState: recording.storedBackupEligible.map { eligible in
                BackupStateResult.Stored(backupEligible: eligible, backedUp: recording.storedBackedUp ?? false)
            },
            userHandle: side.userHandle)
        let verified = try AuthenticationVerifier(expectations: expectations).verify(assertion)
        try policy.evaluate(verified).get()
        return verified
    }

    /// The registration expectations: trust anchors first, then the challenge, then `verifyAt`.
    private static func registrationExpectations(
        _ recording: RecordedCeremony,
        originPolicy: OriginPolicy,
        formats: AttestationFormatRegistry
    ) throws(WebAuthnError) -> RegistrationExpectations {
        var anchors = AttestationTrustAnchors()
        if let pems = recording.trustAnchorsPEM {
            do {
                anchors.forAnyFormat = try pems.flatMap { pem throws(CryptoError) in
                    try Certificate.certificates(fromPEM: pem)
                }
            } catch {
                throw WebAuthnError(.untrustedAttestation, "trustAnchorsPEM does not parse: \(error)")
            }
        }
        return RegistrationExpectations(
            challenge: try bytes(recording.challenge, "challenge"),
            rpID: RelyingPartyID(recording.rpId),
            originPolicy: originPolicy,
            userVerificationRequired: recording.userVerificationRequired ?? false,
            allowedAlgorithms: recording.allowedAlgorithms.map { $0.compactMap(COSEAlgorithm.init(rawValue:)) }
                ?? COSEAlgorithm.allCases,
            trustAnchors: anchors,
            verificationTime: try verificationTime(recording),
            formats: formats)
    }

    /// Decodes a base64url field of the relying party's side (the issued challenge, the stored key).
    private static func bytes(_ text: String?, _ field: String) throws(WebAuthnError) -> [UInt8] {
        guard let text, let bytes = Base64URL.decode(text) else {
            throw WebAuthnError(.malformedResponse, "\(field) missing or not base64url")
        }
        return bytes
    }

    /// `verifyAt` (ISO 8601, RFC 3339 §5.6) or the fixed default.
    private static func verificationTime(_ recording: RecordedCeremony) throws(WebAuthnError) -> Date {
        guard let text = recording.verifyAt else { return CeremonyReplayer.defaultVerificationTime }
        guard let date = ISO8601DateFormatter().date(from: text) else {
            throw WebAuthnError(.malformedResponse, "verifyAt \"\(text)\" is not ISO 8601")
        }
        return date
    }
}
