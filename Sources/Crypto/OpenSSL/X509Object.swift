internal import COpenSSL
import Foundation

/// Owner of one parsed `X509`, plus the field readers `Certificate` uses once at parse time.
final class X509Object: @unchecked Sendable {  // immutable; OpenSSL 3 locks its lazy X509 caches
    /// The owned `X509 *`.
    let pointer: OpaquePointer

    private init(taking pointer: OpaquePointer) {
        self.pointer = pointer
    }

    deinit { X509_free(pointer) }

    /// Parses DER with `d2i_X509`; the whole input must be consumed.
    static func parse(_ der: [UInt8]) throws(CryptoError) -> X509Object {
        guard !der.isEmpty else { throw CryptoError(.invalidCertificate, "empty certificate") }
        let (parsed, consumed) = OpenSSLDecoding.decode(der) { cursor, length in d2i_X509(nil, cursor, length) }
        guard let parsed else { throw OpenSSLErrorQueue.failure(.invalidCertificate, "d2i_X509") }
        let object = X509Object(taking: parsed)
        guard consumed == der.count else {
            throw CryptoError(.invalidCertificate, "\(der.count - consumed) trailing bytes after the certificate")
        }
        return object
    }

    /// The DER encoding (`i2d_X509`).
    func derEncoded() -> [UInt8] {
        OpenSSLEncoding.encode { out in i2d_X509(pointer, out) }
    }

    /// The version number (1, 2 or 3): `X509_get_version` is zero-based.
    var version: Int { Int(X509_get_version(pointer)) + 1 }

    /// The serialNumber INTEGER contents (two's complement, as encoded).
    func serialNumber() throws(CryptoError) -> [UInt8] {
        guard let serial = X509_get0_serialNumber(pointer) else {
            throw CryptoError(.invalidCertificate, "certificate has no serial number")
        }
        let encoded = OpenSSLEncoding.encode { out in i2d_ASN1_INTEGER(serial, out) }
        return try DERNode.parse(encoded).contents
    }

    /// notBefore and notAfter (RFC 5280 §4.1.2.5).
    func validity() throws(CryptoError) -> (notBefore: Date, notAfter: Date) {
        guard let notBefore = Self.date(X509_get0_notBefore(pointer)),
            let notAfter = Self.date(X509_get0_notAfter(pointer))
        else {
            throw OpenSSLErrorQueue.failure(.invalidCertificate, "unreadable validity time")
        }
        return (notBefore, notAfter)
    }

    private static func date(_ time: UnsafePointer<ASN1_TIME>?) -> Date? {
        guard let time else { return nil }
        var parts = tm()
        guard ASN1_TIME_to_tm(time, &parts) == 1 else { return nil }
        return Date(timeIntervalSince1970: TimeInterval(timegm(&parts)))
    }

    /// The subject Name.
    func subject() throws(CryptoError) -> DistinguishedName {
        try Self.name(X509_get_subject_name(pointer))
    }

    /// The issuer Name.
    func issuer() throws(CryptoError) -> DistinguishedName {
        try Self.name(X509_get_issuer_name(pointer))
    }

    private static func name(_ name: OpaquePointer?) throws(CryptoError) -> DistinguishedName {
        guard let name else { throw CryptoError(.invalidCertificate, "missing Name") }
        var attributes: [DistinguishedName.Attribute] = []
        let count = X509_NAME_entry_count(name)
        for index in 0..<max(count, 0) {
            guard let entry = X509_NAME_get_entry(name, index), let object = X509_NAME_ENTRY_get_object(entry),
                let oid = ASN1Reader.dottedText(object), let data = X509_NAME_ENTRY_get_data(entry)
            else {
                throw OpenSSLErrorQueue.failure(.invalidCertificate, "unreadable Name attribute \(index)")
            }
            var utf8: UnsafeMutablePointer<UInt8>?
            let length = ASN1_STRING_to_UTF8(&utf8, data)
            guard length >= 0, let utf8 else {
                throw OpenSSLErrorQueue.failure(.invalidCertificate, "Name attribute \(oid) is not a string")
            }
            defer { COpenSSL_free(utf8) }
            let value = String(decoding: UnsafeBufferPointer(start: utf8, count: Int(length)), as: UTF8.self)
            attributes.append(DistinguishedName.Attribute(oid: oid, value: value))
        }
        let der = OpenSSLEncoding.encode { out in i2d_X509_NAME(name, out) }
        return DistinguishedName(attributes: attributes, derEncoded: der)
    }

    /// The SubjectPublicKeyInfo DER.
    func subjectPublicKeyInfo() throws(CryptoError) -> [UInt8] {
        guard let key = X509_get_X509_PUBKEY(pointer) else {
            throw CryptoError(.invalidCertificate, "certificate has no SubjectPublicKeyInfo")
        }
        let der = OpenSSLEncoding.encode { out in i2d_X509_PUBKEY(key, out) }
        guard !der.isEmpty else { throw CryptoError(.invalidCertificate, "unencodable SubjectPublicKeyInfo") }
        return der
    }

    /// Every extension in order.
    func extensions() throws(CryptoError) -> [CertificateExtension] {
        var result: [CertificateExtension] = []
        let count = X509_get_ext_count(pointer)
        for index in 0..<max(count, 0) {
            guard let item = X509_get_ext(pointer, index), let object = X509_EXTENSION_get_object(item),
                let oid = ASN1Reader.dottedText(object), let data = X509_EXTENSION_get_data(item)
            else {
                throw OpenSSLErrorQueue.failure(.invalidCertificate, "unreadable extension \(index)")
            }
            let length = Int(ASN1_STRING_length(data))
            let value: [UInt8] =
                if length > 0, let bytes = ASN1_STRING_get0_data(data) {
                    Array(UnsafeBufferPointer(start: bytes, count: length))
                } else {
                    []
                }
            result.append(
                CertificateExtension(oid: oid, isCritical: X509_EXTENSION_get_critical(item) > 0, value: value))
        }
        return result
    }

    /// The outer signatureAlgorithm OID, after checking it equals the TBSCertificate's signature field.
    func signatureAlgorithmOID() throws(CryptoError) -> String {
        var signature: UnsafePointer<ASN1_BIT_STRING>?
        var algorithm: UnsafePointer<X509_ALGOR>?
        X509_get0_signature(&signature, &algorithm, pointer)
        guard let algorithm, let inner = X509_get0_tbs_sigalg(pointer) else {
            throw CryptoError(.invalidCertificate, "certificate has no signature algorithm")
        }
        // RFC 5280 §4.1.1.2: signatureAlgorithm MUST equal the signature field of TBSCertificate.
        guard X509_ALGOR_cmp(algorithm, inner) == 0 else {
            throw CryptoError(.invalidCertificate, "signatureAlgorithm differs from TBSCertificate.signature")
        }
        var object: OpaquePointer?
        X509_ALGOR_get0(&object, nil, nil, algorithm)
        guard let object, let oid = ASN1Reader.dottedText(object) else {
            throw OpenSSLErrorQueue.failure(.invalidCertificate, "unreadable signature algorithm")
        }
        return oid
    }
}
