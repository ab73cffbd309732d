import JSON
import WebAuthn

/// One recorded WebAuthn ceremony (Fixtures/ceremonies/FORMAT.md, version 1): what the relying party
/// expected, what the client sent, and the outcome the recording expects. Binary values are base64url.
public struct RecordedCeremony: Decodable, Sendable {
    /// Which verifier the ceremony runs through.
    public enum Kind: String, Decodable, Sendable {
        /// §7.1.
        case registration
        /// §7.2.
        case authentication
    }

    /// The recorded outcome; every field present is compared on replay.
    public struct Expectation: Decodable, Sendable {
        /// Whether the ceremony must verify.
        public let ok: Bool
        /// The recording library's message for a failure (informative, not compared).
        public let error: String?
        /// passkeyd's addition to the format: the `WebAuthnError` code a refusal must carry (the code the token
        /// endpoint logs and counts as `webauthn_failure:<code>`, in its snake_case spelling); compared when present.
        /// The set of codes is closed, so a spelling that is not one makes the file not a recording.
        public let errorCode: WebAuthnError.Code?
        /// Registration: attestation format.
        public let fmt: String?
        /// Registration: base64url credential ID.
        public let credentialId: String?
        /// Registration: AAGUID in UUID text form.
        public let aaguid: String?
        /// Registration: signature counter.
        public let signCount: UInt32?
        /// Registration: base64url COSE_Key.
        public let credentialPublicKey: String?
        /// UV flag.
        public let userVerified: Bool?
        /// Registration: BE flag.
        public let backupEligible: Bool?
        /// Registration: BS flag.
        public let backedUp: Bool?
        /// Authentication: the counter to store.
        public let newSignCount: UInt32?

        private enum CodingKeys: String, CodingKey {
            case ok, error, errorCode, fmt, credentialId, aaguid, signCount, credentialPublicKey, userVerified
            case backupEligible, backedUp, newSignCount
        }

        /// Decodes the members, each optional but `ok`; `errorCode` must name a `WebAuthnError.Code`.
        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            ok = try container.decode(Bool.self, forKey: .ok)
            error = try container.decodeIfPresent(String.self, forKey: .error)
            if let text = try container.decodeIfPresent(String.self, forKey: .errorCode) {
                guard let code = WebAuthnError.Code(rawValue: text) else {
                    throw DecodingError.dataCorruptedError(
                        forKey: .errorCode, in: container,
                        debugDescription: "\"\(text)\" is not a WebAuthnError code (docs/api.md lists them)")
                }
                errorCode = code
            } else {
                errorCode = nil
            }
            fmt = try container.decodeIfPresent(String.self, forKey: .fmt)
            credentialId = try container.decodeIfPresent(String.self, forKey: .credentialId)
            aaguid = try container.decodeIfPresent(String.self, forKey: .aaguid)
            signCount = try container.decodeIfPresent(UInt32.self, forKey: .signCount)
            credentialPublicKey = try container.decodeIfPresent(String.self, forKey: .credentialPublicKey)
            userVerified = try container.decodeIfPresent(Bool.self, forKey: .userVerified)
            backupEligible = try container.decodeIfPresent(Bool.self, forKey: .backupEligible)
            backedUp = try container.decodeIfPresent(Bool.self, forKey: .backedUp)
            newSignCount = try container.decodeIfPresent(UInt32.self, forKey: .newSignCount)
        }
    }

    /// A unique name for the case.
    public let name: String
    /// Where the recording comes from.
    public let source: String?
    /// registration or authentication.
    public let ceremony: Kind
    /// The RP ID.
    public let rpId: String
    /// Acceptable origins.
    public let origins: [String]
    /// base64url of the challenge.
    public let challenge: String
    /// Whether UV was required (absent: false).
    public let userVerificationRequired: Bool?
    /// passkeyd's addition to the format: whether the RP accepts ceremonies run in a cross-origin iframe
    /// (clientData `crossOrigin: true`, WebAuthn L3 §5.8.1; absent: false).
    public let allowCrossOrigin: Bool?
    /// passkeyd's addition to the format: the top-level origins the RP accepts being framed by when
    /// clientData carries `topOrigin` (WebAuthn L3 §7.1 step 10, §7.2 step 14; absent: none). Only
    /// consulted when `allowCrossOrigin` is true.
    public let topOrigins: [String]?
    /// ISO 8601 instant at which to judge certificates.
    public let verifyAt: String?
    /// PEM roots the recording trusts; absent: attestation is judged without chain validation.
    public let trustAnchorsPEM: [String]?
    /// The credential the client sent: the PublicKeyCredential in WebAuthn JSON form, read by
    /// `PublicKeyCredentialJSON` as the token endpoint reads `authn_response`. Kept as JSON so that a malformed
    /// one (a member missing, of the wrong JSON type, not base64url) is a refused ceremony, as at the endpoint,
    /// rather than a file that is not a recording.
    public let response: JSONValue
    /// Authentication: base64url COSE_Key the RP stored.
    public let credentialPublicKey: String?
    /// Authentication: the counter the RP stored.
    public let storedSignCount: UInt32?
    /// passkeyd's addition to the format (what `passkeyd serve --record` writes): registration: the COSE algorithm
    /// identifiers the RP offered in pubKeyCredParams (WebAuthn L3 §7.1 step 19; absent: every algorithm passkeyd
    /// verifies). An identifier passkeyd does not know is never matched.
    public let allowedAlgorithms: [Int]?
    /// passkeyd's addition: authentication: base64url user handle of the credential's owner; a returned
    /// `userHandle` must equal it (§7.2 step 6; absent: not compared).
    public let userHandle: String?
    /// passkeyd's addition: authentication: the BE flag the RP stored; with `storedBackedUp`, the stored backup
    /// state the assertion's is compared with (§6.1.3; absent: not compared).
    public let storedBackupEligible: Bool?
    /// passkeyd's addition: authentication: the BS flag the RP stored (absent with `storedBackupEligible`: false).
    public let storedBackedUp: Bool?
    /// The expected outcome.
    public let expect: Expectation
}

extension RecordedCeremony {
    /// Reads one recording (a JSON text) with the JSON module's parser, the one reader of JSON in passkeyd: a
    /// repeated member name or other non-I-JSON input is refused, then the fields are decoded.
    /// - Throws: the parser's `JSONError` or a `DecodingError`.
    public init(json bytes: [UInt8]) throws {
        self = try JSONValueDecoder().decode(RecordedCeremony.self, from: try JSONValue(parsing: bytes))
    }
}
