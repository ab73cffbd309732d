import CBOR
import Crypto
import Foundation

/// The `android-safetynet` attestation statement format (WebAuthn L3 §8.5): the platform authenticator
/// obtains a SafetyNet attestation (a JWS signed by Google for attest.android.com) whose nonce binds
/// authenticatorData and clientDataHash.
///
/// ```
/// safetynetStmtFormat = { ver: text, response: bytes }   ; response: the UTF-8 compact JWS
/// ```
public struct AndroidSafetyNetAttestation: AttestationStatementFormat {
    /// How fresh the SafetyNet response must be.
    public struct Configuration: Sendable {
        /// How far `timestampMs` may lie before the verification time. Default 60 s: the response is
        /// fetched just before the credential is created, so an older one is a replay risk.
        public var maximumAge: Duration
        /// How far `timestampMs` may lie after the verification time, for clock skew between Google's
        /// servers and ours. Default 5 s.
        public var maximumClockSkew: Duration

        /// The defaults: 60 s in the past, 5 s in the future.
        public init(maximumAge: Duration = .seconds(60), maximumClockSkew: Duration = .seconds(5)) {
            self.maximumAge = maximumAge
            self.maximumClockSkew = maximumClockSkew
        }
    }

    /// The attestation statement format identifier, "android-safetynet".
    public static let identifier = "android-safetynet"
    /// The host the SafetyNet signing certificate must be issued to (SafetyNet Attestation API).
    static let attestationHostname = "attest.android.com"

    /// The freshness policy this verifier applies.
    public let configuration: Configuration

    /// Creates the verifier with the default freshness window.
    public init() { self.init(configuration: Configuration()) }

    /// Creates the verifier with `configuration`.
    public init(configuration: Configuration) { self.configuration = configuration }

    /// Runs the WebAuthn L3 §8.5.2 verification procedure at `input.verificationTime`.
    /// - Returns: attestation type Basic with trust path = the JWS header x5c (leaf first).
    /// - Throws: an `androidSafetyNet…` code naming the first check that failed, or the shared
    ///   `.unsupportedAlgorithm`, `.badSignature` for the JWS signature.
    public func verify(_ input: AttestationStatementInput) throws(WebAuthnError) -> AttestationStatementResult {
        // Step 1: attStmt is valid CBOR conforming to the syntax above.
        guard input.statement.mapEntries != nil else {
            throw WebAuthnError(.androidSafetyNetMalformedStatement, "attStmt is not a map")
        }
        guard let ver = input.statement[text: "ver"]?.textValue else {
            throw WebAuthnError(.androidSafetyNetMalformedStatement, "attStmt.ver is missing or not text")
        }
        // WebAuthn L3 §8.5: "ver: The version number of Google Play Services responsible for providing the
        // SafetyNet API." Any non-empty value: only one response format exists.
        guard !ver.isEmpty else {
            throw WebAuthnError(.androidSafetyNetInvalidVersion, "attStmt.ver is empty")
        }
        guard let response = input.statement[text: "response"]?.bytesValue else {
            throw WebAuthnError(.androidSafetyNetMalformedStatement, "attStmt.response is missing or not bytes")
        }

        // Step 2: "Verify that response is a valid SafetyNet response of version ver" — a compact JWS.
        let jws = try AndroidSafetyNetJWS(compact: response)

        // Step 4 (done before trusting any payload field): "Verify that the SafetyNet response actually came
        // from the SafetyNet service": the JWS signature verifies with the leaf certificate, and that
        // certificate is issued to attest.android.com (SafetyNet Attestation API, "Verify the compatibility
        // check response"). Chain validation happens in the registration verifier.
        try jws.verifySignature()
        guard let leaf = jws.certificates.first, Self.isIssuedToAttestationHost(leaf) else {
            throw WebAuthnError(
                .androidSafetyNetHostnameMismatch, "JWS leaf certificate is not for \(Self.attestationHostname)")
        }

        // Step 3: "Verify that the nonce attribute in the payload of response is identical to the Base64
        // encoding of the SHA-256 hash of the concatenation of authenticatorData and clientDataHash."
        // Base64 here is RFC 4648 §4 with padding, as SafetyNet returns it.
        let expectedNonce = Data(Digest.sha256(input.authenticatorData.rawBytes + input.clientDataHash))
            .base64EncodedString()
        guard jws.payload.nonce == expectedNonce else {
            throw WebAuthnError(
                .androidSafetyNetNonceMismatch, "payload nonce is not base64(SHA-256(authData || clientDataHash))")
        }

        // WebAuthn L2 §8.5 step 5 / SafetyNet API: ctsProfileMatch must be true (a device that fails the
        // compatibility profile is not a genuine Android device).
        guard jws.payload.ctsProfileMatch else {
            throw WebAuthnError(.androidSafetyNetCTSProfileMismatch, "payload ctsProfileMatch is false")
        }

        // Freshness: timestampMs must lie in [verificationTime - maximumAge, verificationTime + maximumClockSkew].
        try checkTimestamp(jws.payload.timestampMs, at: input.verificationTime)

        // Step 5: attestation type Basic, trust path x5c.
        return AttestationStatementResult(type: .basic, trustPath: jws.certificates)
    }

    /// Refuses a `timestampMs` outside the configured window around `time`.
    func checkTimestamp(_ timestampMs: Int64, at time: Date) throws(WebAuthnError) {
        let nowMs = (time.timeIntervalSince1970 * 1000).rounded()
        let ageMs = nowMs - Double(timestampMs)
        let maximumAgeMs = Self.milliseconds(configuration.maximumAge)
        let maximumSkewMs = Self.milliseconds(configuration.maximumClockSkew)
        guard ageMs <= maximumAgeMs, -ageMs <= maximumSkewMs else {
            throw WebAuthnError(
                .androidSafetyNetTimestampOutOfRange,
                "payload timestampMs \(timestampMs) is \(Int64(ageMs)) ms from the verification time"
            )
        }
    }

    private static func milliseconds(_ duration: Duration) -> Double {
        let (seconds, attoseconds) = duration.components
        return Double(seconds) * 1000 + Double(attoseconds) / 1e15
    }

    /// True when the certificate names attest.android.com as a subjectAltName dNSName or as its common name.
    static func isIssuedToAttestationHost(_ certificate: Certificate) -> Bool {
        if certificate.subject.values(forOID: "2.5.4.3").contains(attestationHostname) {
            return true
        }
        // id-ce-subjectAltName (RFC 5280 §4.2.1.6): dNSName is [2] IMPLICIT IA5String.
        guard let subjectAltName = certificate.extension(oid: "2.5.29.17"),
            let generalNames = try? DERNode.parse(subjectAltName.value).children()
        else {
            return false
        }
        return generalNames.contains { name in
            name.tagClass == .contextSpecific && name.tagNumber == 2 && !name.isConstructed
                && String(decoding: name.contents, as: UTF8.self) == attestationHostname
        }
    }
}
