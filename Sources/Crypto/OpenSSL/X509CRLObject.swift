internal import COpenSSL
import Foundation

/// Owner of one parsed `X509_CRL`, plus the field readers `CertificateRevocationList` uses once at parse time.
final class X509CRLObject: @unchecked Sendable {  // immutable after parsing; handed to X509_STORE_add_crl only
    /// The owned `X509_CRL *`.
    let pointer: OpaquePointer

    private init(taking pointer: OpaquePointer) {
        self.pointer = pointer
    }

    deinit { X509_CRL_free(pointer) }

    /// Parses DER with `d2i_X509_CRL`; the whole input must be consumed.
    static func parse(_ der: [UInt8]) throws(CryptoError) -> X509CRLObject {
        guard !der.isEmpty else { throw CryptoError(.invalidCertificate, "empty CRL") }
        let (parsed, consumed) = OpenSSLDecoding.decode(der) { cursor, length in d2i_X509_CRL(nil, cursor, length) }
        guard let parsed else { throw OpenSSLErrorQueue.failure(.invalidCertificate, "d2i_X509_CRL") }
        let object = X509CRLObject(taking: parsed)
        guard consumed == der.count else {
            throw CryptoError(.invalidCertificate, "\(der.count - consumed) trailing bytes after the CRL")
        }
        return object
    }

    /// The CRL issuer's Name as DER.
    func issuerDER() throws(CryptoError) -> [UInt8] {
        guard let name = X509_CRL_get_issuer(pointer) else {
            throw CryptoError(.invalidCertificate, "CRL has no issuer")
        }
        let der = OpenSSLEncoding.encode { out in i2d_X509_NAME(name, out) }
        guard !der.isEmpty else { throw CryptoError(.invalidCertificate, "unencodable CRL issuer") }
        return der
    }

    /// thisUpdate and nextUpdate (RFC 5280 §5.1.2.4–5); nextUpdate is optional in the syntax.
    func updates() throws(CryptoError) -> (thisUpdate: Date, nextUpdate: Date?) {
        guard let thisUpdate = Self.date(X509_CRL_get0_lastUpdate(pointer)) else {
            throw OpenSSLErrorQueue.failure(.invalidCertificate, "unreadable CRL thisUpdate")
        }
        let next = X509_CRL_get0_nextUpdate(pointer)
        guard next == nil || Self.date(next) != nil else {
            throw OpenSSLErrorQueue.failure(.invalidCertificate, "unreadable CRL nextUpdate")
        }
        return (thisUpdate, Self.date(next))
    }

    private static func date(_ time: UnsafePointer<ASN1_TIME>?) -> Date? {
        guard let time else { return nil }
        var parts = tm()
        guard ASN1_TIME_to_tm(time, &parts) == 1 else { return nil }
        return Date(timeIntervalSince1970: TimeInterval(timegm(&parts)))
    }
}
