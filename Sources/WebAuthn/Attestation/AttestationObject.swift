import CBOR

/// The attestation object (WebAuthn L3 §6.5): a CBOR map `{fmt: text, attStmt: map or array, authData: bytes}`.
public struct AttestationObject: Sendable {
    /// The bytes as received.
    public let rawBytes: [UInt8]
    /// The attestation statement format identifier.
    public let format: String
    /// The attestation statement, whose shape `format` defines: a map, or an array (`compound`, §8.9).
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
        // §6.5.4 attStmtTemplate: `attStmt: ({ * tstr => any } // [ * any ])`, a map or (since L3) an array.
        let statement: CBORValue
        switch value[text: "attStmt"] {
        case .some(let map) where map.mapEntries != nil: statement = map
        case .some(let array) where array.arrayValue != nil: statement = array
        default: throw WebAuthnError(.malformedAttestationObject, "attStmt missing or neither a map nor an array")
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
