import Foundation

/// An X.509 certificate revocation list (RFC 5280 §5), parsed once, keeping the exact DER. Parsing is not
/// validation: `TrustStore.validate(leaf:intermediates:at:crls:)` checks its signature, its issuer and its
/// thisUpdate/nextUpdate at the validation time, and refuses a chain certificate it lists.
public struct CertificateRevocationList: Sendable, Hashable {
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
        let blocks = try PEM.blocks("X509 CRL", in: pem, invalid: .invalidCertificate)
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
