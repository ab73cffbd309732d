extension Certificate {
    /// Every `CERTIFICATE` block of a PEM bundle, in order (RFC 7468 §5). Text outside blocks
    /// (comments, other block types) is ignored.
    /// - Throws: `.invalidCertificate` when there is no block, a block is unterminated or its
    ///   base64 or DER is malformed.
    public static func certificates(fromPEM pem: String) throws(CryptoError) -> [Certificate] {
        var certificates: [Certificate] = []
        for der in try PEM.blocks("CERTIFICATE", in: pem, invalid: .invalidCertificate) {
            certificates.append(try Certificate(derEncoded: der))
        }
        return certificates
    }
}
