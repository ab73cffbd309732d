import Foundation

/// An X.509 certificate revocation list (RFC 5280 §5), parsed once, keeping the exact DER. Parsing is not
/// validation: `TrustStore.validate(leaf:intermediates:at:crls:)` checks its signature, its issuer and its
/// thisUpdate/nextUpdate at the validation time, and refuses a chain certificate it lists.
public struct CertificateRevocationList: Sendable, Hashable {
    /// RFC 7468 §2 encapsulation boundaries for CRLs.
    static let pemBegin = "-----BEGIN X509 CRL-----"
    static let pemEnd = "-----END X509 CRL-----"

    /// The DER bytes exactly as received.
    public let derEncoded: [UInt8]
    /// The issuer Name's DER (RFC 5280 §5.1.2.3).
    public let issuerDER: [UInt8]
    /// thisUpdate (RFC 5280 §5.1.2.4).
    public let thisUpdate: Date
    /// nextUpdate (RFC 5280 §5.1.2.5), nil when absent.
    public let nextUpdate: Date?
    /// The parsed OpenSSL object, kept for chain validation.
    let crl: X509CRLObject

    /// Parses one DER CRL.
    /// - Throws: `.invalidCertificate` for malformed DER or trailing bytes.
    public init(der: [UInt8]) throws(CryptoError) {
        let crl = try X509CRLObject.parse(der)
        let updates = try crl.updates()
        self.crl = crl
        self.derEncoded = der
        self.issuerDER = try crl.issuerDER()
        self.thisUpdate = updates.thisUpdate
        self.nextUpdate = updates.nextUpdate
    }

    /// Parses a PEM file holding exactly one `X509 CRL` block (RFC 7468 §6); text outside the block is ignored.
    /// - Throws: `.invalidCertificate` when there is no block or more than one, a block is unterminated, or its
    ///   base64 or DER is malformed.
    public init(pem: String) throws(CryptoError) {
        var blocks: [[UInt8]] = []
        var body: String?
        for rawLine in pem.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline) {
            let line = rawLine.trimmingCharacters(in: .whitespaces)
            if line == Self.pemBegin {
                guard body == nil else { throw CryptoError(.invalidCertificate, "nested BEGIN X509 CRL") }
                body = ""
            } else if line == Self.pemEnd {
                guard let text = body else { throw CryptoError(.invalidCertificate, "END X509 CRL without BEGIN") }
                guard let der = Data(base64Encoded: text) else {
                    throw CryptoError(.invalidCertificate, "X509 CRL PEM block is not base64")
                }
                blocks.append([UInt8](der))
                body = nil
            } else if let text = body {
                body = text + line
            }
        }
        guard body == nil else { throw CryptoError(.invalidCertificate, "unterminated X509 CRL PEM block") }
        guard blocks.count == 1, let der = blocks.first else {
            throw CryptoError(.invalidCertificate, "expected one X509 CRL PEM block, found \(blocks.count)")
        }
        try self.init(der: der)
    }

    /// CRLs are equal when their DER encodings are.
    public static func == (lhs: CertificateRevocationList, rhs: CertificateRevocationList) -> Bool {
        lhs.derEncoded == rhs.derEncoded
    }

    /// Hashes the DER encoding.
    public func hash(into hasher: inout Hasher) { hasher.combine(derEncoded) }
}
