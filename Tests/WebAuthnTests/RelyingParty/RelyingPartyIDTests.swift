import Crypto
import Testing

@testable import WebAuthn

@Suite("RelyingPartyID")
struct RelyingPartyIDTests {
    /// The bytes of a hex string (test vectors computed outside Swift, with Python's hashlib).
    func hex(_ text: String) -> [UInt8] {
        let digits = Array(text.utf8)
        return stride(from: 0, to: digits.count, by: 2).compactMap { index in
            UInt8(String(decoding: digits[index..<index + 2], as: UTF8.self), radix: 16)
        }
    }

    @Test("§6.1: the hash is SHA-256 of the RP ID's UTF-8 bytes")
    func hashIsSHA256() {
        #expect(
            RelyingPartyID("example.com").hash
                == hex("a379a6f6eeafb9a55e378c118034e2751e682fab9f2d30ab13d2125586ce1947"))
        #expect(
            RelyingPartyID("login.example.com").hash
                == hex("0c6ca0839c3a5683557833f618a2556665df2a088964787d53850b4ad4d3bedc"))
    }

    @Test("a literal builds the same value and hash as the initializer")
    func literal() {
        let literal: RelyingPartyID = "example.com"
        #expect(literal == RelyingPartyID("example.com"))
        #expect(literal.hash == RelyingPartyID("example.com").hash)
        #expect(literal.description == "example.com")
        #expect(RelyingPartyID("example.com") != RelyingPartyID("example.org"))
    }
}
