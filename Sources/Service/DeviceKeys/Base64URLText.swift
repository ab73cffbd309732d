/// The base64url alphabet (RFC 4648 §5) of our identifiers.
package enum Base64URLText {
    /// Whether every character of `text` is in the base64url alphabet.
    package static func isAlphabet(_ text: String) -> Bool {
        text.utf8.allSatisfy { byte in
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "_"):
                true
            default:
                false
            }
        }
    }
}
