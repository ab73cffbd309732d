import Foundation

/// RFC 7468 textual encodings: the DER of every block of one label in a PEM text, in order. Text outside blocks
/// (comments, blocks of other labels) is ignored. The one reader of PEM for certificates and public keys.
public enum PEM {
    /// The DER of each `label` block (`CERTIFICATE`, `PUBLIC KEY`) in `text`.
    /// - Throws: `code` when there is no such block, a block is nested or unterminated, an END has no BEGIN, or a
    ///   block's base64 is malformed.
    public static func blocks(_ label: String, in text: String, invalid code: CryptoError.Code) throws(CryptoError)
        -> [[UInt8]]
    {
        let begin = "-----BEGIN \(label)-----"
        let end = "-----END \(label)-----"
        var blocks: [[UInt8]] = []
        var body: String?
        for rawLine in text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline) {
            let line = rawLine.trimmingCharacters(in: .whitespaces)
            if line == begin {
                guard body == nil else { throw CryptoError(code, "nested BEGIN \(label)") }
                body = ""
            } else if line == end {
                guard let base64 = body else { throw CryptoError(code, "END without BEGIN") }
                guard let der = Data(base64Encoded: base64) else { throw CryptoError(code, "PEM block is not base64") }
                blocks.append([UInt8](der))
                body = nil
            } else if let base64 = body {
                body = base64 + line
            }
        }
        guard body == nil else { throw CryptoError(code, "unterminated PEM block") }
        guard !blocks.isEmpty else { throw CryptoError(code, "no \(label) block in PEM") }
        return blocks
    }
}
