import CBOR

/// Attested credential data (WebAuthn L3 §6.5.1), found inside authenticator data when AT is set.
///
/// Layout: `aaguid(16) credentialIdLength(2, big-endian) credentialId(L) credentialPublicKey(COSE_Key CBOR)`
public struct AttestedCredentialData: Sendable {
    /// The authenticator's AAGUID (16 bytes; all zero when not disclosed).
    public let aaguid: [UInt8]
    /// The credential ID.
    public let credentialID: [UInt8]
    /// The COSE_Key bytes exactly as they appear in authenticator data (what the RP stores).
    public let rawCredentialPublicKey: [UInt8]
    /// The parsed credential public key.
    public let credentialPublicKey: COSEKey

    /// WebAuthn L3 §6.5.1: sizes of the fixed parts and the credential ID ceiling.
    static let aaguidLength = 16
    static let maximumCredentialIDLength = 1023

    /// Reads attested credential data at the reader's position, leaving it just after the COSE key.
    init(reading reader: inout ByteReader) throws(WebAuthnError) {
        let aaguid = try reader.read(Self.aaguidLength, "aaguid")
        let length = Int(try reader.readUInt16("credentialIdLength"))
        // WebAuthn L3 §6.5.1: credentialIdLength MUST be ≤ 1023.
        guard length <= Self.maximumCredentialIDLength else {
            throw WebAuthnError(.malformedAuthenticatorData, "credentialIdLength \(length) exceeds 1023")
        }
        let credentialID = try reader.read(length, "credentialId")
        // The key's length is not encoded: the CBOR decoder reports where the COSE_Key ends.
        let decoded: (value: CBORValue, bytesConsumed: Int)
        do {
            decoded = try CBORDecoder.decodePrefix(reader.rest)
        } catch {
            throw WebAuthnError(.malformedAuthenticatorData, "credentialPublicKey: \(error)")
        }
        let raw = try reader.read(decoded.bytesConsumed, "credentialPublicKey")
        self.aaguid = aaguid
        self.credentialID = credentialID
        self.rawCredentialPublicKey = raw
        self.credentialPublicKey = try COSEKey(cbor: decoded.value, raw: raw)
    }
}
