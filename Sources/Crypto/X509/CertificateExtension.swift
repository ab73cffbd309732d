/// One certificate extension (RFC 5280 §4.1.2.9).
public struct CertificateExtension: Sendable, Hashable {
    /// Well-known extension OIDs.
    public enum OID {
        /// basicConstraints (RFC 5280 §4.2.1.9).
        public static let basicConstraints = "2.5.29.19"
        /// extKeyUsage (RFC 5280 §4.2.1.12).
        public static let extendedKeyUsage = "2.5.29.37"
        /// subjectAltName (RFC 5280 §4.2.1.6).
        public static let subjectAlternativeName = "2.5.29.17"
        /// keyUsage (RFC 5280 §4.2.1.3).
        public static let keyUsage = "2.5.29.15"
        /// FIDO id-fido-gen-ce-aaguid (FIDO Alliance, WebAuthn L3 §8.2.1).
        public static let fidoAAGUID = "1.3.6.1.4.1.45724.1.1.4"
        /// Android Key Attestation KeyDescription (WebAuthn L3 §8.4.1).
        public static let androidKeyDescription = "1.3.6.1.4.1.11129.2.1.17"
        /// Apple anonymous attestation nonce (WebAuthn L3 §8.8).
        public static let appleNonce = "1.2.840.113635.100.8.2"
    }

    /// The extension's OID, dotted.
    public let oid: String
    /// The critical flag.
    public let isCritical: Bool
    /// The contents of the extnValue OCTET STRING (the DER of the extension's own value).
    public let value: [UInt8]

    /// Creates an extension value.
    public init(oid: String, isCritical: Bool, value: [UInt8]) {
        self.oid = oid
        self.isCritical = isCritical
        self.value = value
    }
}
