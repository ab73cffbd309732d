internal import COpenSSL

/// DER element headers and primitive values through OpenSSL's ASN.1 decoder. Our only length
/// arithmetic is bounds checks; OpenSSL reads tags and lengths (`ASN1_get_object`) and computes the
/// minimal DER size (`ASN1_object_size`) we compare against to refuse non-minimal encodings.
enum ASN1Reader {
    /// The header of one element found at some offset.
    struct Header {
        /// Tag class bits as OpenSSL reports them (V_ASN1_UNIVERSAL, …).
        let tagClass: DERNode.TagClass
        /// The tag number.
        let tagNumber: Int
        /// Whether the constructed bit is set.
        let isConstructed: Bool
        /// Identifier + length octets.
        let headerLength: Int
        /// Contents octets.
        let contentLength: Int
    }

    /// Reads the header of the element starting at `offset` in `bytes`; the element must lie
    /// entirely inside `bytes` and be DER (definite, minimal length; minimal tag encoding).
    static func header(in bytes: [UInt8], at offset: Int) throws(CryptoError) -> Header {
        let remaining = bytes.count - offset
        guard offset >= 0, remaining > 0 else { throw CryptoError(.invalidDER, "no element at offset \(offset)") }
        var length = 0
        var tag: Int32 = 0
        var tagClass: Int32 = 0
        let (flags, headerLength) = bytes.withUnsafeBufferPointer { buffer -> (Int32, Int) in
            guard let base = buffer.baseAddress else { return (0x80, 0) }
            let start = base + offset
            var cursor: UnsafePointer<UInt8>? = start
            let flags = ASN1_get_object(&cursor, &length, &tag, &tagClass, remaining)
            return (flags, cursor.map { start.distance(to: $0) } ?? 0)
        }
        // ASN1_get_object sets 0x80 on a malformed header or a length running past `remaining`.
        guard flags & 0x80 == 0 else {
            throw OpenSSLErrorQueue.failure(.invalidDER, "malformed or truncated DER element at offset \(offset)")
        }
        // X.690 §10.1: DER uses the definite form only (0x01 flags the indefinite form).
        guard flags & 0x01 == 0 else {
            throw CryptoError(.invalidDER, "indefinite length at offset \(offset) is BER, not DER")
        }
        guard length >= 0, length <= Int(Int32.max), headerLength > 0, headerLength <= remaining,
            length <= remaining - headerLength
        else {
            throw CryptoError(.invalidDER, "element at offset \(offset) runs past its enclosing bytes")
        }
        let isConstructed = flags & Int32(V_ASN1_CONSTRUCTED) != 0
        // X.690 §10.1 and §8.1.2.4: minimal length octets and tag encoding — the header must be
        // exactly as long as the one OpenSSL would encode for this tag and length.
        let minimalSize = ASN1_object_size(isConstructed ? 1 : 0, Int32(length), tag)
        guard minimalSize >= 0, Int(minimalSize) == headerLength + length else {
            throw CryptoError(.invalidDER, "non-minimal DER header at offset \(offset)")
        }
        return Header(
            tagClass: DERNode.TagClass(openSSLClass: tagClass), tagNumber: Int(tag), isConstructed: isConstructed,
            headerLength: headerLength, contentLength: length)
    }

    /// The dotted form of an encoded OBJECT IDENTIFIER element (`d2i_ASN1_OBJECT` + `OBJ_obj2txt`).
    static func objectIdentifier(encoded: [UInt8]) throws(CryptoError) -> String {
        let (object, consumed) = OpenSSLDecoding.decode(encoded) { cursor, length in
            d2i_ASN1_OBJECT(nil, cursor, length)
        }
        guard let object else { throw OpenSSLErrorQueue.failure(.invalidDER, "d2i_ASN1_OBJECT") }
        defer { ASN1_OBJECT_free(object) }
        guard consumed == encoded.count else { throw CryptoError(.invalidDER, "trailing bytes after OID") }
        guard let text = dottedText(object) else {
            throw OpenSSLErrorQueue.failure(.invalidDER, "OBJ_obj2txt")
        }
        return text
    }

    /// `OBJ_obj2txt(no_name = 1)` of a borrowed `ASN1_OBJECT`.
    static func dottedText(_ object: OpaquePointer) -> String? {
        var buffer = [CChar](repeating: 0, count: 128)
        var written = Int(OBJ_obj2txt(&buffer, Int32(buffer.count), object, 1))
        if written >= buffer.count {
            buffer = [CChar](repeating: 0, count: written + 1)
            written = Int(OBJ_obj2txt(&buffer, Int32(buffer.count), object, 1))
        }
        guard written > 0, written < buffer.count else { return nil }
        return CStringText.decode(buffer)
    }

    /// The value of an encoded INTEGER element that fits in 64 bits (`d2i_ASN1_INTEGER` +
    /// `ASN1_INTEGER_get_int64`).
    static func integerValue(encoded: [UInt8]) throws(CryptoError) -> Int64 {
        let (integer, consumed) = OpenSSLDecoding.decode(encoded) { cursor, length in
            d2i_ASN1_INTEGER(nil, cursor, length)
        }
        guard let integer else { throw OpenSSLErrorQueue.failure(.invalidDER, "d2i_ASN1_INTEGER") }
        defer { ASN1_INTEGER_free(integer) }
        guard consumed == encoded.count else { throw CryptoError(.invalidDER, "trailing bytes after INTEGER") }
        var value: Int64 = 0
        guard ASN1_INTEGER_get_int64(&value, integer) == 1 else {
            throw OpenSSLErrorQueue.failure(.invalidDER, "INTEGER does not fit in 64 bits")
        }
        return value
    }
}

extension DERNode.TagClass {
    /// Maps OpenSSL's class bits (V_ASN1_UNIVERSAL 0x00, APPLICATION 0x40, CONTEXT_SPECIFIC 0x80, PRIVATE 0xC0).
    init(openSSLClass: Int32) {
        switch openSSLClass {
        case Int32(V_ASN1_APPLICATION): self = .application
        case Int32(V_ASN1_CONTEXT_SPECIFIC): self = .contextSpecific
        case Int32(V_ASN1_PRIVATE): self = .private
        default: self = .universal
        }
    }
}
