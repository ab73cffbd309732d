/// The one error type of the WebAuthn module. `code` names exactly which check failed and goes to
/// the client; `reason` carries detail for logs. Attestation formats add codes in
/// `Attestation/Formats/<Format>+Codes.swift` extensions.
public struct WebAuthnError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A stable error code.
    public struct Code: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
        /// The code's stable text.
        public let rawValue: String
        /// Wraps a code text.
        public init(rawValue: String) { self.rawValue = rawValue }
        /// The code's stable text.
        public var description: String { rawValue }
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

extension WebAuthnError.Code {
    // MARK: response shape
    /// `type` of the PublicKeyCredential is not "public-key" (WebAuthn L3 §5.1).
    public static let credentialTypeMismatch = Self(rawValue: "credentialTypeMismatch")
    /// `id` is not the base64url form of `rawId`, or the credential ID differs from the one in authData.
    public static let credentialIDMismatch = Self(rawValue: "credentialIDMismatch")
    /// A base64url field of the response does not decode.
    public static let malformedResponse = Self(rawValue: "malformedResponse")

    // MARK: client data (§5.8.1, §7.1 steps 5–10, §7.2 steps 9–14)
    /// clientDataJSON is not a JSON object with the required members.
    public static let malformedClientData = Self(rawValue: "malformedClientData")
    /// `type` is not webauthn.create / webauthn.get as the ceremony requires.
    public static let typeMismatch = Self(rawValue: "typeMismatch")
    /// `challenge` differs from the challenge the RP issued.
    public static let challengeMismatch = Self(rawValue: "challengeMismatch")
    /// `origin` is not one of the RP's origins.
    public static let originMismatch = Self(rawValue: "originMismatch")
    /// `crossOrigin` is true and the RP does not allow cross-origin ceremonies.
    public static let crossOriginNotAllowed = Self(rawValue: "crossOriginNotAllowed")
    /// `topOrigin` is not one of the RP's allowed top origins.
    public static let topOriginMismatch = Self(rawValue: "topOriginMismatch")
    /// `tokenBinding.status` is not a known value.
    public static let tokenBindingUnsupported = Self(rawValue: "tokenBindingUnsupported")

    // MARK: authenticator data (§6.1)
    /// authenticatorData is too short, has leftover bytes, or AT/ED disagree with what is present.
    public static let malformedAuthenticatorData = Self(rawValue: "malformedAuthenticatorData")
    /// BS is set while BE is not (WebAuthn L3 §6.3.3).
    public static let invalidBackupState = Self(rawValue: "invalidBackupState")
    /// rpIdHash is not SHA-256 of the RP ID.
    public static let rpIDHashMismatch = Self(rawValue: "rpIDHashMismatch")
    /// The UP flag is not set.
    public static let userPresenceRequired = Self(rawValue: "userPresenceRequired")
    /// UV is required by the RP and the UV flag is not set.
    public static let userVerificationRequired = Self(rawValue: "userVerificationRequired")
    /// Registration authenticator data carries no attested credential data.
    public static let missingAttestedCredentialData = Self(rawValue: "missingAttestedCredentialData")

    // MARK: keys and signatures
    /// The COSE_Key is not a well-formed key of a supported kind.
    public static let malformedCOSEKey = Self(rawValue: "malformedCOSEKey")
    /// The COSE algorithm identifier is not one this server implements.
    public static let unsupportedAlgorithm = Self(rawValue: "unsupportedAlgorithm")
    /// The credential's algorithm is not one the RP offered in pubKeyCredParams.
    public static let algorithmNotAllowed = Self(rawValue: "algorithmNotAllowed")
    /// A signature does not verify.
    public static let badSignature = Self(rawValue: "badSignature")
    /// The new signature counter is not greater than the stored one: possible cloned authenticator.
    public static let counterNotIncreased = Self(rawValue: "counterNotIncreased")
    /// `userHandle` differs from the credential's user handle.
    public static let userHandleMismatch = Self(rawValue: "userHandleMismatch")

    // MARK: attestation (§7.1 steps 19–24, §8)
    /// The attestation object is not a CBOR map with fmt/attStmt/authData.
    public static let malformedAttestationObject = Self(rawValue: "malformedAttestationObject")
    /// `fmt` names a format this server does not implement.
    public static let unsupportedAttestationFormat = Self(rawValue: "unsupportedAttestationFormat")
    /// The attestation statement fails its format's verification procedure.
    public static let invalidAttestationStatement = Self(rawValue: "invalidAttestationStatement")
    /// An attestation certificate fails its format's requirements (e.g. §8.2.1).
    public static let invalidAttestationCertificate = Self(rawValue: "invalidAttestationCertificate")
    /// The attestation trust path does not chain to a configured trust anchor.
    public static let untrustedAttestation = Self(rawValue: "untrustedAttestation")
}
