/// One DER element (ITU-T X.690 §10): tag, and the exact bytes, read on demand.
///
/// The reader is OpenSSL's `ASN1_get_object`; every element must be definite-length with a
/// minimal header, and `parse` refuses trailing bytes. Children are parsed lazily by `children()`.
public struct DERNode: Sendable, Hashable {
    /// ASN.1 tag classes (X.690 §8.1.2.2).
    public enum TagClass: Sendable, Hashable {
        /// Universal (built-in types).
        case universal
        /// Application-specific.
        case application
        /// Context-specific (`[n]` in ASN.1 modules).
        case contextSpecific
        /// Private.
        case `private`
    }

    /// Universal tag numbers (X.680 §8.4) used by the accessors.
    public enum UniversalTag {
        /// BOOLEAN.
        public static let boolean = 1
        /// INTEGER.
        public static let integer = 2
        /// BIT STRING.
        public static let bitString = 3
        /// OCTET STRING.
        public static let octetString = 4
        /// NULL.
        public static let null = 5
        /// OBJECT IDENTIFIER.
        public static let objectIdentifier = 6
        /// ENUMERATED.
        public static let enumerated = 10
        /// UTF8String.
        public static let utf8String = 12
        /// SEQUENCE / SEQUENCE OF.
        public static let sequence = 16
        /// SET / SET OF.
        public static let set = 17
        /// PrintableString.
        public static let printableString = 19
        /// IA5String.
        public static let ia5String = 22
        /// VisibleString.
        public static let visibleString = 26
    }

    /// The tag class.
    public let tagClass: TagClass
    /// The tag number.
    public let tagNumber: Int
    /// Whether the element is constructed (contains elements).
    public let isConstructed: Bool
    /// The whole element: identifier, length and contents octets.
    public let encoded: [UInt8]
    /// The contents octets.
    public let contents: [UInt8]

    /// Parses exactly one DER element.
    /// - Throws: `.invalidDER` for malformed, non-DER, truncated input or trailing bytes.
    public static func parse(_ bytes: [UInt8]) throws(CryptoError) -> DERNode {
        let node = try element(in: bytes, at: 0)
        guard node.encoded.count == bytes.count else {
            throw CryptoError(.invalidDER, "\(bytes.count - node.encoded.count) trailing bytes after DER element")
        }
        return node
    }

    /// The element starting at `offset` in `bytes`.
    private static func element(in bytes: [UInt8], at offset: Int) throws(CryptoError) -> DERNode {
        let header = try ASN1Reader.header(in: bytes, at: offset)
        let contentStart = offset + header.headerLength
        let end = contentStart + header.contentLength
        return DERNode(
            tagClass: header.tagClass, tagNumber: header.tagNumber, isConstructed: header.isConstructed,
            encoded: Array(bytes[offset..<end]), contents: Array(bytes[contentStart..<end]))
    }

    /// Whether the node has the given class and number.
    public func hasTag(_ tagClass: TagClass, _ tagNumber: Int) -> Bool {
        self.tagClass == tagClass && self.tagNumber == tagNumber
    }

    /// The elements inside a constructed node, in order.
    /// - Throws: `.invalidDER` for a primitive node or malformed contents.
    public func children() throws(CryptoError) -> [DERNode] {
        guard isConstructed else { throw CryptoError(.invalidDER, "primitive element has no children") }
        var nodes: [DERNode] = []
        var offset = 0
        while offset < contents.count {
            let node = try Self.element(in: contents, at: offset)
            nodes.append(node)
            offset += node.encoded.count
        }
        return nodes
    }

    /// The dotted form of an OBJECT IDENTIFIER, e.g. "1.2.840.113635.100.8.2".
    /// - Throws: `.invalidDER` for another tag or a malformed OID.
    public func objectIdentifier() throws(CryptoError) -> String {
        try requirePrimitive(UniversalTag.objectIdentifier, "OBJECT IDENTIFIER")
        // X.690 §8.19.2: at least one subidentifier octet.
        guard !contents.isEmpty else { throw CryptoError(.invalidDER, "empty OBJECT IDENTIFIER") }
        return try ASN1Reader.objectIdentifier(encoded: encoded)
    }

    /// The two's-complement contents of an INTEGER (or ENUMERATED), minimal per X.690 §8.3.2.
    /// - Throws: `.invalidDER` for another tag, empty or non-minimal contents.
    public func integerBytes() throws(CryptoError) -> [UInt8] {
        guard !isConstructed, tagClass == .universal,
            tagNumber == UniversalTag.integer || tagNumber == UniversalTag.enumerated
        else {
            throw CryptoError(.invalidDER, "expected INTEGER, found tag \(tagClass) \(tagNumber)")
        }
        guard let first = contents.first else { throw CryptoError(.invalidDER, "empty INTEGER") }
        // X.690 §8.3.2: the first nine bits must not be all zeros or all ones.
        if contents.count > 1 {
            let second = contents[1]
            guard !(first == 0x00 && second & 0x80 == 0), !(first == 0xFF && second & 0x80 != 0) else {
                throw CryptoError(.invalidDER, "non-minimal INTEGER")
            }
        }
        return contents
    }

    /// The value of an INTEGER (or ENUMERATED) that fits in `Int`.
    /// - Throws: `.invalidDER` for another tag, a malformed or an out-of-range integer.
    public func integerValue() throws(CryptoError) -> Int {
        _ = try integerBytes()
        // d2i_ASN1_INTEGER only accepts the INTEGER tag: re-tag ENUMERATED contents as INTEGER.
        let value = try ASN1Reader.integerValue(encoded: tagNumber == UniversalTag.integer ? encoded : retagged(2))
        guard let result = Int(exactly: value) else { throw CryptoError(.invalidDER, "INTEGER out of range") }
        return result
    }

    /// The contents of an OCTET STRING.
    /// - Throws: `.invalidDER` for another tag (DER forbids the constructed form, X.690 §10.2).
    public func octetString() throws(CryptoError) -> [UInt8] {
        try requirePrimitive(UniversalTag.octetString, "OCTET STRING")
        return contents
    }

    /// The value of a BOOLEAN (X.690 §11.1: DER TRUE is 0xFF).
    /// - Throws: `.invalidDER` for another tag, a length other than 1 or a non-DER value.
    public func boolean() throws(CryptoError) -> Bool {
        try requirePrimitive(UniversalTag.boolean, "BOOLEAN")
        guard contents.count == 1, let value = contents.first, value == 0x00 || value == 0xFF else {
            throw CryptoError(.invalidDER, "BOOLEAN must be one byte 0x00 or 0xFF")
        }
        return value == 0xFF
    }

    /// The bytes of a BIT STRING with no unused bits (X.690 §8.6.2, §11.2).
    /// - Throws: `.invalidDER` for another tag, an empty string or unused bits.
    public func bitStringBytes() throws(CryptoError) -> [UInt8] {
        try requirePrimitive(UniversalTag.bitString, "BIT STRING")
        guard contents.first == 0 else { throw CryptoError(.invalidDER, "BIT STRING with unused bits or empty") }
        return Array(contents.dropFirst())
    }

    /// The text of a UTF8String, PrintableString, IA5String or VisibleString.
    /// - Throws: `.invalidDER` for another tag or invalid UTF-8.
    public func string() throws(CryptoError) -> String {
        let textTags = [
            UniversalTag.utf8String, UniversalTag.printableString, UniversalTag.ia5String,
            UniversalTag.visibleString,
        ]
        guard tagClass == .universal, !isConstructed, textTags.contains(tagNumber) else {
            throw CryptoError(.invalidDER, "expected a string, found tag \(tagClass) \(tagNumber)")
        }
        guard let text = String(validating: contents, as: UTF8.self) else {
            throw CryptoError(.invalidDER, "string is not valid UTF-8")
        }
        return text
    }

    private func requirePrimitive(_ number: Int, _ name: String) throws(CryptoError) {
        guard tagClass == .universal, tagNumber == number, !isConstructed else {
            throw CryptoError(.invalidDER, "expected \(name), found tag \(tagClass) \(tagNumber)")
        }
    }

    /// The element with its one-byte universal identifier replaced (tags < 31 only).
    private func retagged(_ number: UInt8) -> [UInt8] {
        [number] + encoded.dropFirst()
    }
}
