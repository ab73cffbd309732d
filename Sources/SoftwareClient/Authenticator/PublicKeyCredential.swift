import Crypto
import WebAuthn

/// What the software authenticator hands back: a PublicKeyCredential with its raw bytes, serialisable to the
/// WebAuthn JSON form an app posts as `authn_response` (WebAuthn L3 §5.1.8, RegistrationResponseJSON /
/// AuthenticationResponseJSON).
public struct PublicKeyCredential: Sendable {
    /// `id`: base64url of `rawID` unless tampered with.
    public var id: String
    /// `rawId`.
    public var rawID: [UInt8]
    /// `type`: "public-key" unless tampered with.
    public var type: String
    /// `authenticatorAttachment`, when reported.
    public var authenticatorAttachment: String?
    /// `response.clientDataJSON`, the exact bytes signed over.
    public var clientDataJSON: [UInt8]
    /// `response.attestationObject` (registration only).
    public var attestationObject: [UInt8]?
    /// `response.transports` (registration only).
    public var transports: [String]
    /// `response.authenticatorData` (assertion only).
    public var authenticatorData: [UInt8]?
    /// `response.signature` (assertion only).
    public var signature: [UInt8]?
    /// `response.userHandle` (assertion only; nil leaves it out).
    public var userHandle: [UInt8]?

    /// Whether this is a registration (attestation) rather than an assertion.
    public var isRegistration: Bool { attestationObject != nil }

    /// The WebAuthn JSON form, binary members base64url without padding, `clientExtensionResults` empty.
    public func toJSON() -> String {
        var response = "\"clientDataJSON\":\"\(Base64URL.encode(clientDataJSON))\""
        if let attestationObject {
            response += ",\"attestationObject\":\"\(Base64URL.encode(attestationObject))\""
            response += ",\"transports\":[\(transports.map(JSONText.quoted).joined(separator: ","))]"
        }
        if let authenticatorData { response += ",\"authenticatorData\":\"\(Base64URL.encode(authenticatorData))\"" }
        if let signature { response += ",\"signature\":\"\(Base64URL.encode(signature))\"" }
        if let userHandle { response += ",\"userHandle\":\"\(Base64URL.encode(userHandle))\"" }
        var json =
            "{\"id\":\(JSONText.quoted(id)),\"rawId\":\"\(Base64URL.encode(rawID))\",\"type\":\(JSONText.quoted(type))"
        if let authenticatorAttachment {
            json += ",\"authenticatorAttachment\":\(JSONText.quoted(authenticatorAttachment))"
        }
        json += ",\"response\":{\(response)},\"clientExtensionResults\":{}}"
        return json
    }

    /// The registration as the WebAuthn module's verifier takes it; nil for an assertion.
    public var registrationResponse: RegistrationResponse? {
        guard let attestationObject else { return nil }
        return RegistrationResponse(
            id: id, rawID: rawID, type: type, clientDataJSON: clientDataJSON, attestationObject: attestationObject,
            transports: transports)
    }

    /// The assertion as the WebAuthn module's verifier takes it; nil for a registration.
    public var authenticationResponse: AuthenticationResponse? {
        guard let authenticatorData, let signature else { return nil }
        return AuthenticationResponse(
            id: id, rawID: rawID, type: type, clientDataJSON: clientDataJSON, authenticatorData: authenticatorData,
            signature: signature, userHandle: userHandle)
    }
}
