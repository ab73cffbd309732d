import Crypto
import HTTP
import WebAuthn

/// `authn_response`: a PublicKeyCredential in the WebAuthn JSON form (WebAuthn L3 §5.1
/// `RegistrationResponseJSON` / `AuthenticationResponseJSON`), binary members base64url-decoded, the raw bytes
/// kept for verification.
struct PublicKeyCredentialJSON: Sendable {
    let id: String
    let rawID: [UInt8]
    let type: String
    let clientDataJSON: [UInt8]
    /// Registration only.
    let attestationObject: [UInt8]?
    /// Registration only.
    let transports: [String]
    /// Authentication only.
    let authenticatorData: [UInt8]?
    /// Authentication only.
    let signature: [UInt8]?
    /// Authentication only; absent or null when the authenticator returned none.
    let userHandle: [UInt8]?

    /// Reads the members; every failure is `WebAuthnError.malformedResponse`.
    init(_ value: JSONValue) throws(WebAuthnError) {
        guard let members = value.objectValue else { throw WebAuthnError(.malformedResponse, "not an object") }
        guard let id = members["id"]?.stringValue, let type = members["type"]?.stringValue,
            let response = members["response"]?.objectValue
        else {
            throw WebAuthnError(.malformedResponse, "id, type and response are required")
        }
        self.id = id
        self.type = type
        rawID = try Self.bytes(members["rawId"], "rawId")
        clientDataJSON = try Self.bytes(response["clientDataJSON"], "response.clientDataJSON")
        attestationObject = try Self.optionalBytes(response["attestationObject"], "response.attestationObject")
        authenticatorData = try Self.optionalBytes(response["authenticatorData"], "response.authenticatorData")
        signature = try Self.optionalBytes(response["signature"], "response.signature")
        userHandle = try Self.optionalBytes(response["userHandle"], "response.userHandle")
        if let list = response["transports"]?.arrayValue {
            transports = list.compactMap(\.stringValue).prefix(8).map { String($0.prefix(32)) }
        } else {
            transports = []
        }
    }

    /// The registration response (WebAuthn L3 §7.1 input).
    func registration() throws(WebAuthnError) -> RegistrationResponse {
        guard let attestationObject else { throw WebAuthnError(.malformedResponse, "attestationObject missing") }
        return RegistrationResponse(
            id: id, rawID: rawID, type: type, clientDataJSON: clientDataJSON, attestationObject: attestationObject,
            transports: transports)
    }

    /// The authentication response (WebAuthn L3 §7.2 input).
    func authentication() throws(WebAuthnError) -> AuthenticationResponse {
        guard let authenticatorData, let signature else {
            throw WebAuthnError(.malformedResponse, "authenticatorData and signature are required")
        }
        return AuthenticationResponse(
            id: id, rawID: rawID, type: type, clientDataJSON: clientDataJSON, authenticatorData: authenticatorData,
            signature: signature, userHandle: userHandle)
    }

    private static func bytes(_ value: JSONValue?, _ name: String) throws(WebAuthnError) -> [UInt8] {
        guard let text = value?.stringValue, let bytes = Base64URL.decode(text) else {
            throw WebAuthnError(.malformedResponse, "\(name) missing or not base64url")
        }
        return bytes
    }

    private static func optionalBytes(_ value: JSONValue?, _ name: String) throws(WebAuthnError) -> [UInt8]? {
        guard let value, !value.isNull else { return nil }
        return try bytes(value, name)
    }
}
