import Foundation

/// Base64url without padding (RFC 4648 §5), the encoding WebAuthn JSON, JOSE and our wire formats use.
public enum Base64URL {
    /// Encodes bytes as base64url with no `=` padding.
    public static func encode(_ bytes: some Sequence<UInt8>) -> String {
        var text = Data(bytes).base64EncodedString()
        text = text.replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
        while text.hasSuffix("=") { text.removeLast() }
        return text
    }

    /// Decodes base64url text. Padding is accepted but not required (WebAuthn L3 §5.1 JSON forms
    /// are unpadded; some clients pad). Standard-alphabet `+` and `/` are refused: they signal a
    /// client that used the wrong encoding. Returns `nil` for anything that is not base64url.
    public static func decode(_ text: some StringProtocol) -> [UInt8]? {
        var body = Substring(text)
        while body.hasSuffix("=") { body.removeLast() }
        guard body.utf8.allSatisfy(isAlphabet) else { return nil }
        // A single leftover character cannot encode a whole byte (RFC 4648 §4).
        guard body.utf8.count % 4 != 1 else { return nil }
        var standard = String(body).replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        standard += String(repeating: "=", count: (4 - standard.utf8.count % 4) % 4)
        guard let data = Data(base64Encoded: standard) else { return nil }
        return [UInt8](data)
    }

    private static func isAlphabet(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "_"):
            return true
        default:
            return false
        }
    }
}
