/// An X.501 Name (RFC 5280 §4.1.2.4) as an ordered list of attributes, plus its DER bytes.
public struct DistinguishedName: Sendable, Hashable {
    /// One AttributeTypeAndValue.
    public struct Attribute: Sendable, Hashable {
        /// The attribute type, dotted (e.g. "2.5.4.3" for commonName).
        public let oid: String
        /// The value converted to UTF-8.
        public let value: String

        /// Creates an attribute.
        public init(oid: String, value: String) {
            self.oid = oid
            self.value = value
        }
    }

    /// Well-known attribute type OIDs (RFC 5280 Appendix A.1).
    public enum AttributeOID {
        /// commonName.
        public static let commonName = "2.5.4.3"
        /// countryName.
        public static let countryName = "2.5.4.6"
        /// organizationName.
        public static let organizationName = "2.5.4.10"
        /// organizationalUnitName.
        public static let organizationalUnitName = "2.5.4.11"
    }

    /// The attributes in encoding order (all RDNs flattened).
    public let attributes: [Attribute]
    /// The Name exactly as encoded in the certificate.
    public let derEncoded: [UInt8]

    /// Creates a name.
    public init(attributes: [Attribute], derEncoded: [UInt8]) {
        self.attributes = attributes
        self.derEncoded = derEncoded
    }

    /// The values of every attribute with type `oid`, in order.
    public func values(forOID oid: String) -> [String] {
        attributes.filter { $0.oid == oid }.map(\.value)
    }

    /// Whether the name has no attributes (RFC 5280 §4.1.2.6: an empty subject needs a critical SAN).
    public var isEmpty: Bool { attributes.isEmpty }
}
