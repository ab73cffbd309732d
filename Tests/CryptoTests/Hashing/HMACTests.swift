import Crypto
import TestSupport
import Testing

@Suite("HMAC-SHA-256 (RFC 2104) through OpenSSL")
struct HMACTests {
    @Test("RFC 4231 test cases 1 and 2")
    func rfc4231() throws {
        // RFC 4231 §4.2: key 0x0b × 20, "Hi There".
        let first = try HMAC.sha256(key: [UInt8](repeating: 0x0b, count: 20), message: Array("Hi There".utf8))
        #expect(Hex.encode(first) == "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7")
        // RFC 4231 §4.3: key "Jefe", "what do ya want for nothing?".
        let second = try HMAC.sha256(key: Array("Jefe".utf8), message: Array("what do ya want for nothing?".utf8))
        #expect(Hex.encode(second) == "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843")
    }

    @Test("an empty key is refused; an empty message is fine")
    func emptyInputs() throws {
        #expect(throws: CryptoError(.invalidKey, "")) { try HMAC.sha256(key: [UInt8](), message: [1]) }
        #expect(try HMAC.sha256(key: [1], message: [UInt8]()).count == 32)
    }
}
