import CBOR

/// Authenticator data (WebAuthn L3 §6.1), parsed once and kept beside its raw bytes, over which
/// assertion and attestation signatures are checked.
///
/// Layout: `rpIdHash(32) flags(1) signCount(4) [attestedCredentialData] [extensions]`
public struct AuthenticatorData: Sendable {
    /// The bytes as received.
    public let rawBytes: [UInt8]
    /// SHA-256 of the RP ID the credential is scoped to.
    public var rpIDHash: [UInt8] { Array(rpIDHashBytes) }
    /// `rpIdHash` where it lies in `rawBytes` (compared in place by the verifiers).
    var rpIDHashBytes: ArraySlice<UInt8> { rawBytes[0..<Self.rpIDHashLength] }
    /// The flags byte, decoded.
    public let flags: Flags
    /// The signature counter (0 when the authenticator does not count).
    public let signCount: UInt32
    /// Present when the AT flag is set (registration).
    public let attestedCredentialData: AttestedCredentialData?
    /// The extension outputs map, present when the ED flag is set.
    public let extensions: CBORValue?

    /// Byte sizes from WebAuthn L3 §6.1.
    static let rpIDHashLength = 32
    static let minimumLength = 37  // rpIdHash(32) + flags(1) + signCount(4)

    /// Parses authenticator data.
    /// - Throws: `.malformedAuthenticatorData` for any layout fault, `.invalidBackupState` for BS
    ///   without BE, and the COSE key's codes for a bad credential public key.
    public init(bytes: [UInt8]) throws(WebAuthnError) {
        // WebAuthn L3 §6.1: at least rpIdHash, flags and signCount.
        guard bytes.count >= Self.minimumLength else {
            throw WebAuthnError(.malformedAuthenticatorData, "\(bytes.count) bytes, at least 37 needed")
        }
        var reader = ByteReader(bytes, failure: .malformedAuthenticatorData)
        try reader.skip(Self.rpIDHashLength, "rpIdHash")
        let flags = Flags(rawValue: try reader.readUInt8("flags"))
        let signCount = try reader.readUInt32("signCount")

        // WebAuthn L3 §6.3.3: a credential that is not backup eligible cannot be backed up.
        guard flags.backupEligible || !flags.backedUp else {
            throw WebAuthnError(.invalidBackupState, "BS flag set without BE")
        }
        // WebAuthn L3 §6.1 "AT": attested credential data is present exactly when AT is set.
        var attested: AttestedCredentialData?
        if flags.attestedCredentialDataIncluded {
            attested = try AttestedCredentialData(reading: &reader)
        }
        // WebAuthn L3 §6.1 "ED": the extensions map is present exactly when ED is set.
        var extensions: CBORValue?
        if flags.extensionDataIncluded {
            guard reader.remaining > 0 else {
                throw WebAuthnError(.malformedAuthenticatorData, "ED flag set but no extension data")
            }
            let decoded: (value: CBORValue, bytesConsumed: Int)
            do {
                decoded = try CBORDecoder.decodePrefix(reader.rest)
            } catch {
                throw WebAuthnError(.malformedAuthenticatorData, "extensions: \(error)")
            }
            guard case .map = decoded.value else {
                throw WebAuthnError(.malformedAuthenticatorData, "extensions are not a CBOR map")
            }
            try reader.skip(decoded.bytesConsumed, "extensions")
            extensions = decoded.value
        }
        // Nothing may follow: leftover bytes mean AT/ED lie about what is present.
        guard reader.remaining == 0 else {
            throw WebAuthnError(.malformedAuthenticatorData, "\(reader.remaining) leftover bytes")
        }
        self.rawBytes = bytes
        self.flags = flags
        self.signCount = signCount
        self.attestedCredentialData = attested
        self.extensions = extensions
    }
}
