/// The one error type of the DeviceKeys module: a stable `code` for the client, a `reason` for the log.
///
/// Equality compares codes only, so tests and callers match on what went wrong, not on the wording.
public struct DeviceKeyError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A stable, machine-readable error code: the closed set of what can go wrong, spelled in snake_case.
    public enum Code: String, Hashable, Sendable, CaseIterable, CustomStringConvertible {
        /// The code's wire spelling.
        public var description: String { rawValue }

        // MARK: public-key import
        /// The key bytes are neither an X9.62 point nor a SubjectPublicKeyInfo.
        case malformedKey = "malformed_key"
        /// An X9.62 point or SPKI bit string of the wrong length for P-256.
        case invalidKeyLength = "invalid_key_length"
        /// A compressed EC point (0x02/0x03), which we do not accept.
        case compressedPoint = "compressed_point"
        /// An EC key on a curve other than P-256.
        case unsupportedCurve = "unsupported_curve"
        /// A key that is not EC at all (RSA, Ed25519, …).
        case unsupportedKeyType = "unsupported_key_type"
        /// The point is not on the P-256 curve (or is the point at infinity).
        case pointNotOnCurve = "point_not_on_curve"

        // MARK: actions and challenges
        /// The action is not JSON or has no canonical form (repeated names, non-finite numbers); each size and shape
        /// limit has its own code (`actionTooDeep`, `actionTooLarge`, …).
        case invalidAuthorizationDetails = "invalid_authorization_details"
        /// A challenge document field is invalid (nonce length, times, empty identifiers) or the document is not canonical.
        case invalidChallengeDocument = "invalid_challenge_document"

        // MARK: approval verification
        /// The challenge expired before the approval arrived.
        case challengeExpired = "challenge_expired"
        /// The signed document names another challenge, key, subject or action than the stored challenge.
        case challengeMismatch = "challenge_mismatch"
        /// The device signature does not verify over the document bytes with the stored key.
        case invalidSignature = "invalid_signature"

        // MARK: actions: one code per rule `DeviceAction` enforces, so callers can name the rule from the code alone
        // (the reason stays free text for the log). Input that is not JSON, or has no RFC 8785 canonical form (a
        // repeated name, a non-finite number), keeps the general `invalidAuthorizationDetails`.

        /// The action is not a JSON object (RFC 9396 §2).
        case actionNotObject = "action_not_object"
        /// The action has no non-empty string member `type` (RFC 9396 §2).
        case actionMissingType = "action_missing_type"
        /// The action nests objects and arrays deeper than `DeviceAction.Limits.maxDepth`.
        case actionTooDeep = "action_too_deep"
        /// The action has more object members in total than `DeviceAction.Limits.maxTotalMembers`.
        case actionTooManyMembers = "action_too_many_members"
        /// A string or member name of the action is longer than `DeviceAction.Limits.maxStringLength`.
        case actionStringTooLong = "action_string_too_long"
        /// The action is larger than `DeviceAction.Limits.maxCanonicalBytes` (canonical, or far larger as received).
        case actionTooLarge = "action_too_large"

        // MARK: platform key attestation (Android Key Attestation, Apple App Attest): one code per check, so a
        // refusal names the check from the code alone.

        /// The attestation is not decodable: a certificate, the key description, the attestation object or its
        /// authenticator data does not parse, or a required part is missing.
        case attestationMalformed = "attestation_malformed"
        /// The certificate chain does not lead to a configured attestation root (or a signature in it is bad).
        case attestationUntrusted = "attestation_untrusted"
        /// A certificate of the chain is not valid at the verification time.
        case attestationExpired = "attestation_expired"
        /// The attested key is not the key being enrolled.
        case attestationKeyMismatch = "attestation_key_mismatch"
        /// The attestation does not carry the server nonce issued for this enrolment.
        case attestationChallengeMismatch = "attestation_challenge_mismatch"
        /// Android: the key (or the attestation) lives in software, not in a TEE or StrongBox.
        case attestationSoftwareLevel = "attestation_software_level"
        /// Android: the key is not a signing key generated in the keystore that needs a biometric per use.
        case attestationKeyProperties = "attestation_key_properties"
        /// The attested app (Android package, App Attest app id) is not the client's configured app.
        case attestationWrongApp = "attestation_wrong_app"
        /// Android: no signing-certificate digest of the attested app is one of the client's fingerprints.
        case attestationWrongSignature = "attestation_wrong_signature"
        /// App Attest: the aaguid names another environment than the client accepts (`appattestdevelop` where only
        /// production is configured), or neither.
        case attestationWrongEnvironment = "attestation_wrong_environment"
        /// App Attest: the authenticator data's counter is not 0, so this is not the key's attestation.
        case attestationCounterNotZero = "attestation_counter_not_zero"
        /// App Attest: the certificate's key is not the attested App Attest key (its SHA-256 is not the credentialId,
        /// or the credential public key differs).
        case attestationCredentialMismatch = "attestation_credential_mismatch"
    }

    /// What went wrong, stable across releases.
    public let code: Code
    /// Human-readable detail for the log; never shown to the client.
    public let reason: String
    /// Source file of the throw site.
    public let file: String
    /// Source line of the throw site.
    public let line: Int

    /// Creates an error, capturing the throw site.
    public init(_ code: Code, _ reason: String, file: String = #fileID, line: Int = #line) {
        self.code = code
        self.reason = reason
        self.file = file
        self.line = line
    }

    /// Errors are equal when their codes are equal.
    public static func == (lhs: DeviceKeyError, rhs: DeviceKeyError) -> Bool { lhs.code == rhs.code }

    /// `code: reason (file:line)`.
    public var description: String { "\(code.rawValue): \(reason) (\(file):\(line))" }
}
