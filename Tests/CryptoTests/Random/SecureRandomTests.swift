import Crypto
import Testing

@Suite("SecureRandom")
struct SecureRandomTests {
    @Test("returns the requested number of bytes, and two draws differ")
    func drawsBytes() throws {
        let first = try SecureRandom.bytes(count: 32)
        let second = try SecureRandom.bytes(count: 32)
        #expect(first.count == 32)
        #expect(first != second)
        #expect(try SecureRandom.bytes(count: 0).isEmpty)
    }

    @Test("a negative count is refused with .randomFailure")
    func negativeCount() {
        #expect(throws: CryptoError(.randomFailure, "")) { try SecureRandom.bytes(count: -1) }
    }
}
