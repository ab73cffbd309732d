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
    public var challenge: [UInt8] {
        switch challengeField {
        case .decoded(let bytes): bytes
        case .base64URL(let range): Base64URL.decode(ascii: rawBytes[range]) ?? []
        }
    }
    /// `origin`, as sent.
    public var origin: String {
        switch originField {
        case .text(let text): text
        case .ascii(let range): String(decoding: rawBytes[range], as: UTF8.self)
        }
    }
    /// `challenge` as the general parser decoded it, or where the quick scanner found its text: then it is
    /// decoded on the stack when compared, and nothing is allocated for it.
    private let challengeField: Challenge
    /// `origin` as the general parser read it, or where the quick scanner found it (printable ASCII without
    /// escapes, so its bytes are its UTF-8): then it is matched against the policy in place.
    private let originField: Text

    private enum Challenge: Sendable {
        case decoded([UInt8])
        case base64URL(Range<Int>)
    }

    private enum Text: Sendable {
        case text(String)
        case ascii(Range<Int>)
    }
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

    /// Parses clientDataJSON (WebAuthn L3 §7.1 steps 5–6 / §7.2 steps 9–10: UTF-8 decode, then JSON parse).
    /// - Throws: `.malformedClientData` when it is not a JSON object with string `type`, `challenge`, `origin`.
    public init(bytes: [UInt8]) throws(WebAuthnError) {
        // The common shape is read by a quick strict scanner; anything else, and every error, takes the
        // general path below.
        if let quick = Self.quick(bytes) {
            self = quick
            return
        }
        self = try Self.general(bytes)
    }

    /// The general path: the JSON module's parser, then each member this type reads, with its error. Internal so
    /// the differential tests can run it on input the quick path would take.
    static func general(_ bytes: [UInt8]) throws(WebAuthnError) -> CollectedClientData {
        let value: JSONValue
        do {
            value = try JSONValue(parsing: bytes)
        } catch where error.code == .duplicateMemberName {
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
        // A challenge that is not canonical base64url cannot equal ours (see `challengeEquals`): keep nil-safe
        // empty bytes, judged in verify.
        return CollectedClientData(
            rawBytes: bytes, type: type,
            challenge: .decoded(Base64URL.decode(challengeText) ?? []), origin: .text(origin),
            crossOrigin: crossOrigin, topOrigin: topOrigin, tokenBindingStatus: tokenBindingStatus)
    }

    /// The client data from `ClientDataJSONScanner`, when the bytes have its shape and every member this
    /// type reads has the JSON type the general path requires (otherwise `nil`, and the general path
    /// decides, with its error). Reads the same members to the same values as the general path.
    static func quick(_ bytes: [UInt8]) -> CollectedClientData? {
        var members = ClientDataJSONScanner.Members()
        guard ClientDataJSONScanner.scan(bytes, into: &members) else { return nil }
        var type: Range<Int>?
        var challenge: Range<Int>?
        var origin: Range<Int>?
        var crossOrigin: Bool?
        var topOrigin: Range<Int>?
        for index in 0..<members.count {
            let member = members[index]
            switch (Member(bytes, member.name), member.value) {
            case (.type, .string(let text)): type = text
            case (.challenge, .string(let text)): challenge = text
            case (.origin, .string(let text)): origin = text
            case (.crossOrigin, .bool(let flag)): crossOrigin = flag
            case (.topOrigin, .string(let text)): topOrigin = text
            // Only a TokenBinding dictionary is judged; the scanner never yields one, so a string, boolean
            // or null is ignored here exactly as in the general path.
            case (.tokenBinding, _), (.other, _): continue
            case (.type, _), (.challenge, _), (.origin, _), (.crossOrigin, _), (.topOrigin, _): return nil
            }
        }
        guard let type, let challenge, let origin else { return nil }
        // The scanner's strings are printable ASCII without escapes: their bytes are their UTF-8.
        return CollectedClientData(
            rawBytes: bytes, type: String(decoding: bytes[type], as: UTF8.self), challenge: .base64URL(challenge),
            origin: .ascii(origin), crossOrigin: crossOrigin,
            topOrigin: topOrigin.map { String(decoding: bytes[$0], as: UTF8.self) }, tokenBindingStatus: nil)
    }

    /// The members `quick` reads, by their exact (ASCII) names.
    private enum Member {
        case type, challenge, origin, crossOrigin, topOrigin, tokenBinding, other

        /// The member named by `bytes[range]`.
        init(_ bytes: [UInt8], _ range: Range<Int>) {
            self = bytes.withUnsafeBufferPointer { Self(name: $0[range]) }
        }

        private init(name: Slice<UnsafeBufferPointer<UInt8>>) {
            switch name.count {
            case 4 where name.elementsEqual("type".utf8): self = .type
            case 6 where name.elementsEqual("origin".utf8): self = .origin
            case 9 where name.elementsEqual("challenge".utf8): self = .challenge
            case 9 where name.elementsEqual("topOrigin".utf8): self = .topOrigin
            case 11 where name.elementsEqual("crossOrigin".utf8): self = .crossOrigin
            case 12 where name.elementsEqual("tokenBinding".utf8): self = .tokenBinding
            default: self = .other
            }
        }
    }

    /// Memberwise, for `quick`.
    private init(
        rawBytes: [UInt8], type: String, challenge: Challenge, origin: Text, crossOrigin: Bool?,
        topOrigin: String?, tokenBindingStatus: String?
    ) {
        self.rawBytes = rawBytes
        self.type = type
        self.challengeField = challenge
        self.originField = origin
        self.crossOrigin = crossOrigin
        self.topOrigin = topOrigin
        self.tokenBindingStatus = tokenBindingStatus
    }

    /// Whether the challenge is `expected`, compared in constant time; the quick path's text is decoded on the
    /// stack for the comparison.
    ///
    /// WebAuthn L3 §7.1 step 8 / §7.2 step 12 compare C.challenge as a string with base64url(challenge). Decoding
    /// with `Base64URL`'s one spelling (no `=`, URL alphabet, zero unused bits) and comparing the bytes is the same
    /// test: the canonical text is the one string that decodes to those bytes. Both paths (quick and general)
    /// decode through that one rule.
    private func challengeEquals(_ expected: [UInt8]) -> Bool {
        switch challengeField {
        case .decoded(let bytes):
            return ConstantTime.equals(bytes, expected)
        case .base64URL(let range):
            return Base64URL.withDecoded(ascii: rawBytes[range]) { decoded in
                decoded.map { ConstantTime.equals($0, expected) } ?? false
            }
        }
    }

    /// Whether `policy` allows the origin; the quick path's bytes are matched in place.
    private func allowedOrigin(by policy: OriginPolicy) -> Bool {
        switch originField {
        case .text(let text): policy.allows(origin: text)
        case .ascii(let range): policy.allows(originUTF8: rawBytes[range])
        }
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
        guard allowedOrigin(by: originPolicy) else {
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
