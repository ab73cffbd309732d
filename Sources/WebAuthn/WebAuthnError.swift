/// The one error type of the WebAuthn module. `code` names exactly which check failed and goes to
/// the log and the metrics; `reason` carries detail for logs. Every code is declared here, attestation
/// formats' codes included, so the set is closed.
public struct WebAuthnError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A stable error code: the closed set of checks that can fail, spelled in snake_case.
    public enum Code: String, Hashable, Sendable, CaseIterable, CustomStringConvertible {
        /// The code's stable text.
        public var description: String { rawValue }

        // MARK: response shape
        /// `type` of the PublicKeyCredential is not "public-key" (WebAuthn L3 §5.1).
        case credentialTypeMismatch = "credential_type_mismatch"
        /// `id` is not the base64url form of `rawId`, or the credential ID differs from the one in authData.
        case credentialIDMismatch = "credential_id_mismatch"
        /// A base64url field of the response does not decode.
        case malformedResponse = "malformed_response"

        // MARK: client data (§5.8.1, §7.1 steps 5–10, §7.2 steps 9–14)
        /// clientDataJSON is not a JSON object with the required members.
        case malformedClientData = "malformed_client_data"
        /// `type` is not webauthn.create / webauthn.get as the ceremony requires.
        case typeMismatch = "type_mismatch"
        /// `challenge` differs from the challenge the RP issued.
        case challengeMismatch = "challenge_mismatch"
        /// `origin` is not one of the RP's origins.
        case originMismatch = "origin_mismatch"
        /// `crossOrigin` is true and the RP does not allow cross-origin ceremonies.
        case crossOriginNotAllowed = "cross_origin_not_allowed"
        /// `topOrigin` is not one of the RP's allowed top origins.
        case topOriginMismatch = "top_origin_mismatch"
        /// `tokenBinding.status` is not a known value.
        case tokenBindingUnsupported = "token_binding_unsupported"

        // MARK: authenticator data (§6.1)
        /// authenticatorData is too short, has leftover bytes, or AT/ED disagree with what is present.
        case malformedAuthenticatorData = "malformed_authenticator_data"
        /// BS is set while BE is not (WebAuthn L3 §6.3.3).
        case invalidBackupState = "invalid_backup_state"
        /// rpIdHash is not SHA-256 of the RP ID.
        case rpIDHashMismatch = "rp_id_hash_mismatch"
        /// The UP flag is not set.
        case userPresenceRequired = "user_presence_required"
        /// UV is required by the RP and the UV flag is not set.
        case userVerificationRequired = "user_verification_required"
        /// Registration authenticator data carries no attested credential data.
        case missingAttestedCredentialData = "missing_attested_credential_data"

        // MARK: keys and signatures
        /// The COSE_Key is not a well-formed key of a supported kind.
        case malformedCOSEKey = "malformed_cose_key"
        /// The COSE algorithm identifier is not one this server implements.
        case unsupportedAlgorithm = "unsupported_algorithm"
        /// The credential's algorithm is not one the RP offered in pubKeyCredParams.
        case algorithmNotAllowed = "algorithm_not_allowed"
        /// A signature does not verify.
        case badSignature = "bad_signature"
        /// The new signature counter is not greater than the stored one: possible cloned authenticator
        /// (`CeremonyPolicy`'s refusal of `SignatureCounterResult.notIncreased`).
        case counterNotIncreased = "counter_not_increased"
        /// BE differs from the credential record's (`CeremonyPolicy`'s refusal of
        /// `BackupStateResult.eligibilityChanged`, WebAuthn L3 §6.1.3).
        case backupEligibilityChanged = "backup_eligibility_changed"
        /// `userHandle` differs from the credential's user handle.
        case userHandleMismatch = "user_handle_mismatch"

        // MARK: attestation (§7.1 steps 19–24, §8)
        /// The attestation object is not a CBOR map with fmt/attStmt/authData.
        case malformedAttestationObject = "malformed_attestation_object"
        /// `fmt` names a format this server does not implement.
        case unsupportedAttestationFormat = "unsupported_attestation_format"
        /// The attestation statement fails its format's verification procedure.
        case invalidAttestationStatement = "invalid_attestation_statement"
        /// An attestation certificate fails its format's requirements (e.g. §8.2.1).
        case invalidAttestationCertificate = "invalid_attestation_certificate"
        /// The attestation trust path does not chain to a configured trust anchor and the policy requires it
        /// (`CeremonyPolicy`'s refusal of an `AttestationTrustResult` other than `.trusted`).
        case untrustedAttestation = "untrusted_attestation"

        // MARK: compound attestation (§8.9)
        /// `compound` attStmt is not an array of at least two maps, each with a text `fmt` other than "compound" and
        /// an `attStmt` (WebAuthn L3 §8.9 syntax).
        case compoundMalformedStatement = "compound_malformed_statement"

        // MARK: android-key attestation (§8.4)
        /// `android-key` attStmt is not a map or `alg`, `sig`, `x5c` are missing or mistyped (WebAuthn L3 §8.4 syntax).
        case androidKeyMalformedStatement = "android_key_malformed_statement"
        /// An `android-key` x5c entry is not a DER X.509 certificate.
        case androidKeyInvalidCertificate = "android_key_invalid_certificate"
        /// x5c[0]'s public key is not the credential public key (WebAuthn L3 §8.4.2 step 3).
        case androidKeyPublicKeyMismatch = "android_key_public_key_mismatch"
        /// x5c[0] lacks the key description extension 1.3.6.1.4.1.11129.2.1.17 or it does not parse.
        case androidKeyMalformedKeyDescription = "android_key_malformed_key_description"
        /// KeyDescription.attestationChallenge is not clientDataHash (WebAuthn L3 §8.4.2 step 4).
        case androidKeyChallengeMismatch = "android_key_challenge_mismatch"
        /// An authorization list holds allApplications [600]: the key is not scoped to the RP ID (§8.4.2 step 5).
        case androidKeyAllApplications = "android_key_all_applications"
        /// The authorization list's origin [702] is not KM_ORIGIN_GENERATED (§8.4.2 step 5).
        case androidKeyOriginNotGenerated = "android_key_origin_not_generated"
        /// The authorization list's purpose [1] does not contain KM_PURPOSE_SIGN (§8.4.2 step 5).
        case androidKeyPurposeNotSign = "android_key_purpose_not_sign"

        // MARK: android-safetynet attestation (§8.5)
        /// `android-safetynet` attStmt is not a map or `ver`/`response` are missing or mistyped (WebAuthn L3 §8.5 syntax).
        case androidSafetyNetMalformedStatement = "android_safety_net_malformed_statement"
        /// `android-safetynet` attStmt `ver` is empty (WebAuthn L3 §8.5: the Google Play Services version).
        case androidSafetyNetInvalidVersion = "android_safety_net_invalid_version"
        /// `response` is not a compact JWS with a JSON header (alg, x5c) and a JSON SafetyNet payload.
        case androidSafetyNetMalformedResponse = "android_safety_net_malformed_response"
        /// A JWS header x5c entry is not a base64 DER X.509 certificate.
        case androidSafetyNetInvalidCertificate = "android_safety_net_invalid_certificate"
        /// The leaf certificate is not issued to attest.android.com.
        case androidSafetyNetHostnameMismatch = "android_safety_net_hostname_mismatch"
        /// The payload nonce is not base64(SHA-256(authenticatorData || clientDataHash)) (WebAuthn L3 §8.5.2 step 3).
        case androidSafetyNetNonceMismatch = "android_safety_net_nonce_mismatch"
        /// The payload's ctsProfileMatch is not true.
        case androidSafetyNetCTSProfileMismatch = "android_safety_net_cts_profile_mismatch"
        /// The payload's timestampMs lies outside the accepted window around the verification time.
        case androidSafetyNetTimestampOutOfRange = "android_safety_net_timestamp_out_of_range"

        // MARK: apple attestation (§8.8)
        /// `apple` attStmt is not a map or `x5c` is missing, empty or not an array of bytes (WebAuthn L3 §8.8 syntax).
        case appleMalformedStatement = "apple_malformed_statement"
        /// An `apple` x5c entry is not a DER X.509 certificate.
        case appleInvalidCertificate = "apple_invalid_certificate"
        /// credCert lacks extension 1.2.840.113635.100.8.2 or it is not `SEQUENCE { [1] EXPLICIT OCTET STRING }`.
        case appleMalformedNonceExtension = "apple_malformed_nonce_extension"
        /// The nonce in credCert is not SHA-256(authenticatorData || clientDataHash) (WebAuthn L3 §8.8.2 step 4).
        case appleNonceMismatch = "apple_nonce_mismatch"
        /// credCert's subject public key is not the credential public key (WebAuthn L3 §8.8.2 step 5).
        case applePublicKeyMismatch = "apple_public_key_mismatch"

        // MARK: tpm attestation (§8.3)
        /// `tpm` attStmt is missing a field or a field has the wrong CBOR type (WebAuthn L3 §8.3 syntax).
        case tpmMalformedStatement = "tpm_malformed_statement"
        /// `tpm` attStmt `ver` is not "2.0" (WebAuthn L3 §8.3).
        case tpmUnsupportedVersion = "tpm_unsupported_version"
        /// `tpm` attStmt uses ECDAA (`ecdaaKeyId`), which WebAuthn L3 removed and this server does not support.
        case tpmECDAANotSupported = "tpm_ecdaa_not_supported"
        /// `tpm` attStmt has no `x5c` (WebAuthn L3 §8.3.2: "Verify that x5c is present").
        case tpmMissingCertificate = "tpm_missing_certificate"
        /// A `tpm` x5c entry is not a DER X.509 certificate.
        case tpmInvalidCertificate = "tpm_invalid_certificate"
        /// `pubArea` is not a well-formed TPMT_PUBLIC of type RSA or ECC.
        case tpmMalformedPublicArea = "tpm_malformed_public_area"
        /// `pubArea`'s key is not the credential public key (WebAuthn L3 §8.3.2).
        case tpmPublicKeyMismatch = "tpm_public_key_mismatch"
        /// `certInfo` is not a well-formed TPMS_ATTEST.
        case tpmMalformedCertInfo = "tpm_malformed_cert_info"
        /// `certInfo.magic` is not TPM_GENERATED_VALUE.
        case tpmInvalidMagic = "tpm_invalid_magic"
        /// `certInfo.type` is not TPM_ST_ATTEST_CERTIFY.
        case tpmInvalidAttestType = "tpm_invalid_attest_type"
        /// `certInfo.extraData` is not hash(authenticatorData || clientDataHash) with `alg`'s hash.
        case tpmExtraDataMismatch = "tpm_extra_data_mismatch"
        /// `certInfo.attested.name` is not the name of `pubArea` (or `nameAlg` is not a hash).
        case tpmNameMismatch = "tpm_name_mismatch"
        /// The AIK certificate is not version 3 (WebAuthn L3 §8.3.1).
        case tpmCertificateVersion = "tpm_certificate_version"
        /// The AIK certificate's subject is not empty (WebAuthn L3 §8.3.1).
        case tpmCertificateSubjectNotEmpty = "tpm_certificate_subject_not_empty"
        /// The AIK certificate lacks a critical subjectAltName naming TPM manufacturer, model and version.
        case tpmCertificateSubjectAltName = "tpm_certificate_subject_alt_name"
        /// The AIK certificate's extendedKeyUsage lacks tcg-kp-AIKCertificate 2.23.133.8.3.
        case tpmCertificateExtendedKeyUsage = "tpm_certificate_extended_key_usage"
        /// The AIK certificate's basicConstraints is absent or says CA.
        case tpmCertificateBasicConstraints = "tpm_certificate_basic_constraints"
        /// The AIK certificate's id-fido-gen-ce-aaguid extension differs from the authenticator data AAGUID.
        case tpmAAGUIDMismatch = "tpm_aaguid_mismatch"
    }

    /// What went wrong, stable across releases.
    public let code: Code
    /// Human-readable detail for logs.
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

    /// Equality by code only.
    public static func == (lhs: WebAuthnError, rhs: WebAuthnError) -> Bool { lhs.code == rhs.code }

    /// `code: reason (file:line)`.
    public var description: String { "\(code.rawValue): \(reason) (\(file):\(line))" }
}
