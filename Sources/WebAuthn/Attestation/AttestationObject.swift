import CBOR

/// The attestation object (WebAuthn L3 §6.5): a CBOR map `{fmt: text, attStmt: map, authData: bytes}`.
public struct AttestationObject: Sendable {
    /// The bytes as received.
    public let rawBytes: [UInt8]
    /// The attestation statement format identifier.
    public let format: String
    /// The attestation statement, a map whose shape `format` defines.
    public let statement: CBORValue
    /// The authenticator data, parsed.
    public let authenticatorData: AuthenticatorData

    /// Decodes an attestation object (WebAuthn L3 §7.1 step 12).
    /// - Throws: `.malformedAttestationObject` for bad CBOR or a missing/ill-typed member; the
    ///   authenticator data's own codes for bad authData.
    public init(bytes: [UInt8]) throws(WebAuthnError) {
        let value: CBORValue
        do {
            value = try CBORDecoder.decode(bytes)
        } catch {
            throw WebAuthnError(.malformedAttestationObject, "not one CBOR item: \(error)")
        }
        guard case .map = value else {
            throw WebAuthnError(.malformedAttestationObject, "attestation object is not a map")
        }
        guard let format = value[text: "fmt"]?.textValue else {
            throw WebAuthnError(.malformedAttestationObject, "fmt missing or not text")
        }
        guard let statement = value[text: "attStmt"], case .map = statement else {
            throw WebAuthnError(.malformedAttestationObject, "attStmt missing or not a map")
        }
        guard let authData = value[text: "authData"]?.bytesValue else {
            throw WebAuthnError(.malformedAttestationObject, "authData missing or not bytes")
        }
        self.rawBytes = bytes
        self.format = format
        self.statement = statement
        self.authenticatorData = try AuthenticatorData(bytes: authData)
    }
}
