import Crypto
import JSON

/// A PublicKeyCredential in the WebAuthn JSON form (WebAuthn L3 §5.1 `RegistrationResponseJSON` /
/// `AuthenticationResponseJSON`): the one reader of that form, for the token endpoint and `passkeyd replay` alike,
/// so a response is judged the same wherever it comes from.
///
/// Reading happens in two steps, both the server's per request: `init(json:)` checks the shape (every member
/// present with its JSON type) and decodes `rawId`, the member needed first, to find the credential record
/// (§7.2 step 5); `registration()` / `authentication()` decode the members of that ceremony's form. Replay
/// takes the first step once per recording (its JSON is parsed once, like a request body), the second per
/// verification. Every failure is `.malformedResponse`.
public struct PublicKeyCredentialJSON: Sendable {
    /// `id`: base64url of `rawId`, as sent (compared as bytes by the verifiers, §5.1).
    public let id: String
    /// `rawId`, decoded.
    public let rawID: [UInt8]
    /// `type`: the verifiers require "public-key".
    public let type: String
    /// The base64url members of `response`, as sent.
    private let clientDataJSON: String
    private let attestationObject: String?
    private let authenticatorData: String?
    private let signature: String?
    /// Absent or null when the authenticator returned none.
    private let userHandle: String?
    /// `response.transports` (getTransports()), at most `maximumTransports` of at most `maximumTransportLength`
    /// characters each: they are stored with the credential, and only informative (§5.2.1).
    public let transports: [String]

    /// Bounds on the stored `transports`.
    static let maximumTransports = 8
    static let maximumTransportLength = 32

    /// Reads the shape: `id`, `rawId`, `type` strings, `response` an object with a string `clientDataJSON`; the
    /// other binary members strings when present (`userHandle` may be null), `transports` an array of strings
    /// when present. `rawId` must be base64url.
    /// - Throws: `.malformedResponse` naming the member.
    public init(json value: JSONValue) throws(WebAuthnError) {
        guard case .object = value else { throw WebAuthnError(.malformedResponse, "not a JSON object") }
        id = try Self.string(value["id"], "id")
        type = try Self.string(value["type"], "type")
        let rawIDText = try Self.string(value["rawId"], "rawId")
        guard let response = value["response"], case .object = response else {
            throw WebAuthnError(.malformedResponse, "response missing or not an object")
        }
        clientDataJSON = try Self.string(response["clientDataJSON"], "response.clientDataJSON")
        attestationObject = try Self.optionalString(response["attestationObject"], "response.attestationObject")
        authenticatorData = try Self.optionalString(response["authenticatorData"], "response.authenticatorData")
        signature = try Self.optionalString(response["signature"], "response.signature")
        userHandle = try Self.optionalString(response["userHandle"], "response.userHandle")
        transports = try Self.transports(response["transports"])
        rawID = try Self.bytes(rawIDText, "rawId")
    }

    /// The registration response (WebAuthn L3 §7.1 input): `clientDataJSON` and `attestationObject` decoded.
    /// - Throws: `.malformedResponse` when `attestationObject` is absent or a member is not base64url.
    public func registration() throws(WebAuthnError) -> RegistrationResponse {
        guard let attestationObject else {
            throw WebAuthnError(.malformedResponse, "response.attestationObject missing")
        }
        return RegistrationResponse(
            id: id, rawID: rawID, type: type, clientDataJSON: try Self.bytes(clientDataJSON, "response.clientDataJSON"),
            attestationObject: try Self.bytes(attestationObject, "response.attestationObject"), transports: transports)
    }

    /// The authentication response (WebAuthn L3 §7.2 input): `clientDataJSON`, `authenticatorData`, `signature`
    /// and `userHandle` (when present) decoded.
    /// - Throws: `.malformedResponse` when `authenticatorData` or `signature` is absent or a member is not
    ///   base64url.
    public func authentication() throws(WebAuthnError) -> AuthenticationResponse {
        guard let authenticatorData, let signature else {
            throw WebAuthnError(.malformedResponse, "response.authenticatorData and response.signature are required")
        }
        return AuthenticationResponse(
            id: id, rawID: rawID, type: type, clientDataJSON: try Self.bytes(clientDataJSON, "response.clientDataJSON"),
            authenticatorData: try Self.bytes(authenticatorData, "response.authenticatorData"),
            signature: try Self.bytes(signature, "response.signature"),
            userHandle: try userHandle.map { text throws(WebAuthnError) in
                try Self.bytes(text, "response.userHandle")
            })
    }

    /// A binary member's bytes. WebAuthn L3 §5.1's `Base64URLString` is base64url without padding (§3); the
    /// one rule for it is `Base64URL.decode`'s, which every path (either ceremony) calls.
    /// `Base64URL.UnusedBits.ignored`: these bytes are what the verifier checks (signatures cover them, not their
    /// spelling), and RFC 4648 §3.5 lets a decoder ignore the last character's unused bits, as other relying
    /// parties do; `=`, `+`, `/` and whitespace are refused. The challenge inside clientDataJSON, compared as
    /// text (§7.1 step 8), keeps the one spelling.
    private static func bytes(_ text: String, _ name: String) throws(WebAuthnError) -> [UInt8] {
        guard let bytes = Base64URL.decode(text, unusedBits: .ignored) else {
            throw WebAuthnError(.malformedResponse, "\(name) is not base64url without padding")
        }
        return bytes
    }

    private static func string(_ value: JSONValue?, _ name: String) throws(WebAuthnError) -> String {
        guard let value else { throw WebAuthnError(.malformedResponse, "\(name) missing") }
        guard case .string(let text) = value else { throw WebAuthnError(.malformedResponse, "\(name) is not a string") }
        return text
    }

    /// Absent and null are both "none".
    private static func optionalString(_ value: JSONValue?, _ name: String) throws(WebAuthnError) -> String? {
        guard let value, value != .null else { return nil }
        return try string(value, name)
    }

    private static func transports(_ value: JSONValue?) throws(WebAuthnError) -> [String] {
        guard let value, value != .null else { return [] }
        guard case .array(let elements) = value else {
            throw WebAuthnError(.malformedResponse, "response.transports is not an array")
        }
        var transports: [String] = []
        for element in elements {
            guard case .string(let text) = element else {
                throw WebAuthnError(.malformedResponse, "response.transports holds a non-string")
            }
            if transports.count < maximumTransports { transports.append(String(text.prefix(maximumTransportLength))) }
        }
        return transports
    }
}
