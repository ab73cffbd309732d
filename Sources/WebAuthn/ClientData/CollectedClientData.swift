import Crypto
import JSON

/// The client data a browser or platform collected and the authenticator signed over by hash
/// (WebAuthn L3 §5.8.1). Parsed once; `rawBytes` are kept because the signature covers
/// SHA-256(rawBytes), never a re-serialisation.
public struct CollectedClientData: Sendable {
    /// The clientDataJSON bytes as received.
    public let rawBytes: [UInt8]
    /// `type`: "webauthn.create" or "webauthn.get".
    public let type: String
    /// `challenge`, base64url-decoded (empty when it is not canonical base64url: see `challengeEquals`).
    public let challenge: [UInt8]
    /// `origin`, as sent.
    public let origin: String
    /// `crossOrigin`, when present.
    public let crossOrigin: Bool?
    /// `topOrigin`, when present.
    public let topOrigin: String?
    /// `tokenBinding.status`, when the client sent a TokenBinding dictionary.
    public let tokenBindingStatus: String?

    /// The `type` values of the two ceremonies (WebAuthn L3 §5.8.1).
    public enum CeremonyType {
        /// Registration.
        public static let create = "webauthn.create"
        /// Authentication.
        public static let get = "webauthn.get"
    }

    /// Token Binding states WebAuthn L2 §5.8.1 defines (L3 keeps the member reserved).
    static let knownTokenBindingStatuses: Set<String> = ["present", "supported"]

    /// Parses clientDataJSON (WebAuthn L3 §7.1 steps 5–6 / §7.2 steps 9–10: UTF-8 decode, then JSON parse) with the
    /// JSON module's parser, the one reader of JSON in passkeyd, then reads each member this type uses, with its error.
    /// - Throws: `.malformedClientData` when it is not a JSON object (I-JSON: UTF-8, member names unique) with string
    ///   `type`, `challenge`, `origin`, and `crossOrigin`, `topOrigin`, `tokenBinding.status` of their types.
    public init(bytes: [UInt8]) throws(WebAuthnError) {
        let value: JSONValue
        do {
            value = try JSONValue(parsing: bytes)
        } catch  where error.code == .duplicateMemberName {
            // WebAuthn L3 §5.8.1: clientDataJSON serialises a dictionary, whose member names are unique. RFC 8259 §4
            // leaves duplicates to the parser; refusing them keeps two readers from judging different values.
            throw WebAuthnError(.malformedClientData, "clientDataJSON repeats a member name: \(error.reason)")
        } catch {
            throw WebAuthnError(.malformedClientData, "clientDataJSON is not JSON: \(error.reason)")
        }
        guard case .object = value else {
            throw WebAuthnError(.malformedClientData, "clientDataJSON is not a JSON object")
        }
        guard let type = value["type"]?.stringValue else {
            throw WebAuthnError(.malformedClientData, "type missing or not a string")
        }
        guard let challengeText = value["challenge"]?.stringValue else {
            throw WebAuthnError(.malformedClientData, "challenge missing or not a string")
        }
        guard let origin = value["origin"]?.stringValue else {
            throw WebAuthnError(.malformedClientData, "origin missing or not a string")
        }
        var crossOrigin: Bool?
        if let member = value["crossOrigin"] {
            guard let flag = member.boolValue else {
                throw WebAuthnError(.malformedClientData, "crossOrigin is not a boolean")
            }
            crossOrigin = flag
        }
        var topOrigin: String?
        if let member = value["topOrigin"] {
            guard let text = member.stringValue else {
                throw WebAuthnError(.malformedClientData, "topOrigin is not a string")
            }
            topOrigin = text
        }
        // WebAuthn L3 §5.8.1 reserves `tokenBinding`; only a TokenBinding dictionary has a status to judge.
        // Other values carry no statement about the connection and are ignored, as L3 clients may send them.
        var tokenBindingStatus: String?
        if let binding = value["tokenBinding"], case .object = binding {
            guard let status = binding["status"]?.stringValue else {
                throw WebAuthnError(.malformedClientData, "tokenBinding.status missing or not a string")
            }
            tokenBindingStatus = status
        }
        // A challenge that is not canonical base64url cannot equal ours (see `challengeEquals`): keep empty bytes,
        // judged in verify.
        self.rawBytes = bytes
        self.type = type
        self.challenge = Base64URL.decode(challengeText) ?? []
        self.origin = origin
        self.crossOrigin = crossOrigin
        self.topOrigin = topOrigin
        self.tokenBindingStatus = tokenBindingStatus
    }

    /// Whether the challenge is `expected`, compared in constant time.
    ///
    /// WebAuthn L3 §7.1 step 8 / §7.2 step 12 compare C.challenge as a string with base64url(challenge). Decoding
    /// with `Base64URL`'s one spelling (no `=`, URL alphabet, zero unused bits) and comparing the bytes is the same
    /// test: the canonical text is the one string that decodes to those bytes.
    private func challengeEquals(_ expected: [UInt8]) -> Bool {
        ConstantTime.equals(challenge, expected)
    }

    /// Runs the client-data steps of a ceremony, in the spec's order.
    /// - Parameters:
    ///   - expectedType: `CeremonyType.create` (§7.1 step 7) or `CeremonyType.get` (§7.2 step 11).
    ///   - expectedChallenge: the challenge the RP issued (§7.1 step 8, §7.2 step 12).
    ///   - originPolicy: the RP's origins (§7.1 steps 9–10, §7.2 steps 13–14).
    func verify(
        type expectedType: String,
        challenge expectedChallenge: [UInt8],
        originPolicy: OriginPolicy
    ) throws(WebAuthnError) {
        // WebAuthn L3 §7.1 step 7 / §7.2 step 11: C.type is the ceremony's type.
        guard type == expectedType else {
            throw WebAuthnError(.typeMismatch, "type is \"\(type)\", expected \"\(expectedType)\"")
        }
        // WebAuthn L3 §7.1 step 8 / §7.2 step 12: C.challenge equals base64url(options.challenge).
        // Compared as bytes in constant time (a challenge is a secret until it is used).
        guard !expectedChallenge.isEmpty, challengeEquals(expectedChallenge) else {
            throw WebAuthnError(.challengeMismatch, "challenge differs from the one issued")
        }
        // WebAuthn L3 §7.1 step 9 / §7.2 step 13: C.origin is an origin the RP expects.
        guard originPolicy.allows(origin: origin) else {
            throw WebAuthnError(.originMismatch, "origin \"\(origin)\" is not allowed")
        }
        // WebAuthn L3 §5.8.1 crossOrigin: true means the ceremony ran in a cross-origin iframe, which the
        // RP must have chosen to allow.
        if crossOrigin == true, !originPolicy.allowsCrossOrigin {
            throw WebAuthnError(.crossOriginNotAllowed, "crossOrigin is true")
        }
        // WebAuthn L3 §7.1 step 10 / §7.2 step 14: when C.topOrigin is present, the RP expects to be
        // framed and topOrigin is a page it expects to be framed by.
        if let topOrigin {
            guard originPolicy.allowsCrossOrigin, originPolicy.allows(topOrigin: topOrigin) else {
                throw WebAuthnError(.topOriginMismatch, "topOrigin \"\(topOrigin)\" is not allowed")
            }
        }
        // WebAuthn L2 §7.1 step 10 / §7.2 step 14: tokenBinding.status must be a known state. We do not
        // negotiate Token Binding, so "present" carries no id we could check; L3 drops the check.
        if let status = tokenBindingStatus, !Self.knownTokenBindingStatuses.contains(status) {
            throw WebAuthnError(.tokenBindingUnsupported, "tokenBinding.status \"\(status)\"")
        }
    }
}
