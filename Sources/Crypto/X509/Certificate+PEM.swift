import Foundation

extension Certificate {
    /// RFC 7468 §2 encapsulation boundaries for certificates.
    static let pemBegin = "-----BEGIN CERTIFICATE-----"
    static let pemEnd = "-----END CERTIFICATE-----"

    /// Every `CERTIFICATE` block of a PEM bundle, in order (RFC 7468 §5). Text outside blocks
    /// (comments, other block types) is ignored.
    /// - Throws: `.invalidCertificate` when there is no block, a block is unterminated or its
    ///   base64 or DER is malformed.
    public static func certificates(fromPEM pem: String) throws(CryptoError) -> [Certificate] {
        var certificates: [Certificate] = []
        var body: String?
        for rawLine in pem.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline) {
            let line = rawLine.trimmingCharacters(in: .whitespaces)
            if line == pemBegin {
                guard body == nil else { throw CryptoError(.invalidCertificate, "nested BEGIN CERTIFICATE") }
                body = ""
            } else if line == pemEnd {
                guard let text = body else { throw CryptoError(.invalidCertificate, "END without BEGIN") }
                guard let der = Data(base64Encoded: text) else {
                    throw CryptoError(.invalidCertificate, "PEM block is not base64")
                }
                certificates.append(try Certificate(derEncoded: [UInt8](der)))
                body = nil
            } else if let text = body {
                body = text + line
            }
        }
        guard body == nil else { throw CryptoError(.invalidCertificate, "unterminated PEM block") }
        guard !certificates.isEmpty else { throw CryptoError(.invalidCertificate, "no CERTIFICATE block in PEM") }
        return certificates
    }
}
