import Crypto
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

    @Test("padding is accepted")
    func padded() {
        #expect(Base64URL.decode("Zm8=") == Array("fo".utf8))
    }

    @Test("the standard alphabet, stray characters and impossible lengths are refused")
    func rejections() {
        #expect(Base64URL.decode("+/+/AD4") == nil)
        #expect(Base64URL.decode("Zm9v YmFy") == nil)
        #expect(Base64URL.decode("Zm9vY") == nil)
        #expect(Base64URL.decode("Zm9v\n") == nil)
    }
}
