import Crypto
import Foundation

extension Certificate {
    /// The certificate as a PEM file's text (RFC 7468 §5), e.g. to configure a test root.
    public var pemText: String {
        let body = Data(derEncoded).base64EncodedString(options: [.lineLength64Characters, .endLineWithLineFeed])
        return "-----BEGIN CERTIFICATE-----\n\(body)\n-----END CERTIFICATE-----\n"
    }
}
