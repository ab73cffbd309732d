import Crypto
import Testing

@testable import Tokens

@Suite("RefreshToken: 32 random bytes, base64url, stored as SHA-256")
struct RefreshTokenTests {
    @Test("a token is the base64url of its bytes and its hash is SHA-256 of the bytes")
    func format() throws {
        let bytes = [UInt8](0..<32)
        let token = try RefreshToken(randomBytes: bytes)
        #expect(token.value == Base64URL.encode(bytes))
        #expect(token.value.count == 43)
        #expect(token.hash == Digest.sha256(bytes))
    }

    @Test("a presented token hashes to the stored hash")
    func presented() throws {
        let issued = try RefreshToken(randomBytes: try SecureRandom.bytes(count: RefreshToken.byteCount))
        #expect(try RefreshToken(presented: issued.value).hash == issued.hash)
    }

    @Test("only exactly 32 random bytes make a token")
    func wrongByteCount() {
        #expect(throws: TokenError(.malformedRefreshToken, "")) {
            try RefreshToken(randomBytes: [UInt8](repeating: 1, count: 31))
        }
    }

    @Test("presented strings that are not the canonical spelling of 32 bytes are refused")
    func malformedPresented() throws {
        let value = try RefreshToken(randomBytes: [UInt8](repeating: 7, count: 32)).value
        // The last character carries 4 data bits + 2 zero bits; setting a zero bit gives a non-canonical spelling.
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")
        let last = try #require(value.last.flatMap { alphabet.firstIndex(of: $0) })
        let nonCanonical = String(value.dropLast()) + String(alphabet[last ^ 1])
        for text in [
            "", "short", value + "=", value + "AAAA", String(value.dropLast()), "+" + value.dropFirst(), nonCanonical,
        ] {
            #expect(throws: TokenError(.malformedRefreshToken, "")) { try RefreshToken(presented: text) }
        }
    }
}
