import Testing

@testable import Crypto

/// ECDSA verification on the reused `EC_KEY`s of a curve's group: each verification must run under its own public
/// key, never under the point a previous borrower set.
@Suite("ECDSA verification on reused EC_KEYs")
struct ECKeyObjectTests {
    @Test("a reused key verifies under the new point, not the previous one")
    func ownPointEachTime() throws {
        let alice = try P256SigningKey()
        let bob = try P256SigningKey()
        let message: [UInt8] = Array("one message".utf8)
        let aliceSignature = try alice.signature(for: message)
        let bobSignature = try bob.signature(for: message)
        for _ in 0..<3 {
            #expect(alice.publicKey.isValidSignature(aliceSignature, for: message, hash: .sha256))
            #expect(!bob.publicKey.isValidSignature(aliceSignature, for: message, hash: .sha256))
            #expect(bob.publicKey.isValidSignature(bobSignature, for: message, hash: .sha256))
            #expect(!alice.publicKey.isValidSignature(bobSignature, for: message, hash: .sha256))
        }
        let group = try #require(ECGroup.of(.p256))
        #expect(group.idleVerificationKeyCount >= 1)
    }

    @Test("many tasks verifying under the same keys at once each get their own key's answer")
    func concurrentKeys() async throws {
        let message: [UInt8] = Array("concurrent".utf8)
        let signers = try (0..<8).map { _ in try P256SigningKey() }
        let keys = signers.map(\.publicKey)
        let signatures = try signers.map { try $0.signature(for: message) }
        let wrong = await withTaskGroup(of: Int.self) { group in
            for round in 0..<64 {
                group.addTask {
                    var wrong = 0
                    for offset in 0..<keys.count {
                        let signer = (round + offset) % keys.count
                        let other = (signer + 1) % keys.count
                        if !keys[signer].isValidSignature(signatures[signer], for: message, hash: .sha256) {
                            wrong += 1
                        }
                        if keys[other].isValidSignature(signatures[signer], for: message, hash: .sha256) {
                            wrong += 1
                        }
                    }
                    return wrong
                }
            }
            return await group.reduce(0, +)
        }
        #expect(wrong == 0)
        let group = try #require(ECGroup.of(.p256))
        #expect(group.idleVerificationKeyCount <= ECGroup.idleVerificationKeyLimit)
    }
}
