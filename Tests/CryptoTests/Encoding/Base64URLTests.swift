import Crypto
import Foundation
import Testing

@Suite("Base64URL")
struct Base64URLTests {
    @Test("RFC 4648 §10 vectors round-trip without padding, in the URL alphabet")
    func roundTrip() {
        let vectors: [(String, String)] = [
            ("", ""), ("f", "Zg"), ("fo", "Zm8"), ("foo", "Zm9v"), ("foob", "Zm9vYg"), ("fooba", "Zm9vYmE"),
            ("foobar", "Zm9vYmFy"),
        ]
        for (plain, encoded) in vectors {
            #expect(Base64URL.encode(Array(plain.utf8)) == encoded)
            #expect(Base64URL.decode(encoded) == Array(plain.utf8))
        }
        let binary: [UInt8] = [0xFB, 0xFF, 0xBF, 0x00, 0x3E]
        #expect(Base64URL.encode(binary) == "-_-_AD4")
        #expect(Base64URL.decode("-_-_AD4") == binary)
    }

    @Test("padding is refused (WebAuthn L3 §3, RFC 7515 §2: trailing '=' omitted), by every entry point")
    func padded() {
        for text in ["Zm8=", "Zg==", "Zg=", "Zm9v=", "Zm9v====", "="] {
            #expect(Base64URL.decode(text) == nil, "\(text)")
            #expect(Base64URL.decode(Substring(text)) == nil, "\(text)")
            #expect(Base64URL.decode(Substring(text)) == nil, "\(text)")
        }
        #expect(!Base64URL.decodes("Zm8=", to: Array("fo".utf8)))
        #expect(!Base64URL.decodes("Zg==", to: Array("f".utf8)))
    }

    @Test("RFC 4648 §3.5: non-zero unused bits in the last character are refused (one spelling per byte string)")
    func unusedBits() {
        // "fo" is "Zm8" (the last character's 2 unused bits zero); "Zm9", "Zm-", "Zm_" would carry the same bytes.
        // "f" is "Zg" (4 unused bits zero); "Zh" would carry the same byte.
        for (text, bytes) in [("Zm9", "fo"), ("Zm-", "fo"), ("Zm_", "fo"), ("Zh", "f"), ("Zv", "f")] {
            #expect(Base64URL.decode(text) == nil, "\(text)")
            #expect(Base64URL.decode(Substring(text)) == nil, "\(text)")
            #expect(!Base64URL.decodes(text, to: Array(bytes.utf8)), "\(text)")
        }
        #expect(Base64URL.decode("Zm8") == Array("fo".utf8))
        #expect(Base64URL.decode("Zg") == Array("f".utf8))
        // Whole groups have no unused bits.
        #expect(Base64URL.decode("Zm9v") == Array("foo".utf8))
    }

    @Test(
        "RFC 4648 §3.5: with unusedBits .ignored the last character's unused bits may be anything, nothing else changes"
    )
    func unusedBitsIgnored() {
        for (text, bytes) in [("Zm9", "fo"), ("Zm-", "fo"), ("Zm_", "fo"), ("Zh", "f"), ("Zv", "f"), ("Zm8", "fo")] {
            #expect(Base64URL.decode(text, unusedBits: .ignored) == Array(bytes.utf8), "\(text)")
            #expect(Base64URL.decode(Substring(text), unusedBits: .ignored) == Array(bytes.utf8), "\(text)")
            #expect(Base64URL.decodes(text, to: Array(bytes.utf8), unusedBits: .ignored), "\(text)")
        }
        for text in ["Zm8=", "Zg==", "Zm+", "Zm/", " Zm8", "Zm8\n", "Z", "Zm9vY"] {
            #expect(Base64URL.decode(text, unusedBits: .ignored) == nil, "\(text)")
        }
    }

    @Test("the standard alphabet, stray characters and impossible lengths are refused")
    func rejections() {
        #expect(Base64URL.decode("+/+/AD4") == nil)
        #expect(Base64URL.decode("Zm9v YmFy") == nil)
        #expect(Base64URL.decode("Zm9vY") == nil)
        #expect(Base64URL.decode("Zm9v\n") == nil)
        #expect(Base64URL.decode("Zm=9v") == nil)  // `=` only at the end
    }

    @Test("isAlphabet: exactly the 64 URL-safe characters, with no padding and nothing outside ASCII")
    func alphabetCheck() {
        #expect(Base64URL.isAlphabet("AZaz09-_"))
        #expect(Base64URL.isAlphabet(""))
        for text in ["a+b", "a/b", "ab=", "a b", "a.b", "é", "a\u{0}"] {
            #expect(!Base64URL.isAlphabet(text), "\(text)")
        }
    }

    /// What Foundation's standard-alphabet decoder makes of `text`, mapped from the URL alphabet.
    static func reference(_ text: [UInt8]) -> [UInt8]? {
        var standard = text.map {
            $0 == UInt8(ascii: "-") ? UInt8(ascii: "+") : $0 == UInt8(ascii: "_") ? UInt8(ascii: "/") : $0
        }
        while standard.count % 4 != 0 { standard.append(UInt8(ascii: "=")) }
        return Data(base64Encoded: Data(standard)).map { Array($0) }
    }

    @Test("every byte in every position of a group and of a 2- or 3-character tail: decoded as the alphabet says")
    func everyByteEveryPosition() {
        let alphabet = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)
        for byte in UInt8.min...UInt8.max {
            for template in ["QUJD", "QUI", "QQ"] {
                for position in 0..<template.utf8.count {
                    var text = Array(template.utf8)
                    text[position] = byte
                    let decoded = Base64URL.decode(String(decoding: text, as: UTF8.self))
                    if alphabet.contains(byte) {
                        // The reference's bytes, when `text` is the one text `encode` writes for them.
                        let expected = Self.reference(text)
                        let isCanonical = expected.map { Base64URL.encode($0) == String(decoding: text, as: UTF8.self) }
                        #expect(expected != nil, "reference, byte \(byte) at \(position) of \(template)")
                        #expect(
                            decoded == (isCanonical == true ? expected : nil),
                            "byte \(byte) at \(position) of \(template)")
                    } else {
                        // `=` included: padding is refused wherever it stands.
                        #expect(decoded == nil, "byte \(byte) at \(position) of \(template)")
                    }
                }
            }
        }
    }

    @Test("decodes(_:to:) answers whether the text decodes to exactly those bytes, as decode does")
    func decodesTo() {
        for count in 0..<40 {
            let bytes = (0..<count).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 11) }
            let text = Base64URL.encode(bytes)
            #expect(Base64URL.decodes(text, to: bytes))
            #expect(!Base64URL.decodes(text + "==", to: bytes) && Base64URL.decode(text + "==") == nil)
            if count > 0 {
                var other = bytes
                other[count - 1] ^= 0x01
                #expect(!Base64URL.decodes(text, to: other), "last byte changed, \(count) bytes")
                #expect(!Base64URL.decodes(text, to: Array(bytes.dropLast())), "one byte short, \(count) bytes")
                #expect(!Base64URL.decodes(text.replacingOccurrences(of: text.prefix(1), with: "+"), to: bytes))
            }
        }
        #expect(!Base64URL.decodes("A", to: []))  // an impossible length
        #expect(!Base64URL.decodes("AQID/A", to: [1, 2, 3, 252]))  // the standard alphabet's '/'
    }
}
