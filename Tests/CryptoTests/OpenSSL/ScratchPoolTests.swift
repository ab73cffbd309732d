import Synchronization
import Testing

@testable import Crypto

/// The bounded free list behind pooled `BN_CTX`s and verification `EC_KEY`s.
@Suite("ScratchPool")
struct ScratchPoolTests {
    /// A stand-in object with an identity.
    final class Token: ScratchObject {
        let serial: Int
        init(_ serial: Int) { self.serial = serial }
    }

    /// Counts how many tokens a pool had to build.
    final class Maker: Sendable {
        private let count = Mutex(0)
        var made: Int { count.withLock { $0 } }
        func make() -> Token {
            count.withLock { made in
                made += 1
                return Token(made)
            }
        }
    }

    @Test("an object given back is the one the next borrower gets; nothing new is built")
    func reuses() {
        let pool = ScratchPool<Token>(capacity: 4)
        let maker = Maker()
        let first = pool.withObject(make: maker.make) { $0.serial }
        let second = pool.withObject(make: maker.make) { $0.serial }
        #expect(first == 1)
        #expect(second == 1)
        #expect(maker.made == 1)
        #expect(pool.idleCount == 1)
    }

    @Test("borrowers at once get distinct objects, and no more than the capacity stay idle")
    func boundsIdleObjects() {
        let pool = ScratchPool<Token>(capacity: 2)
        let maker = Maker()
        let serials = pool.withObject(make: maker.make) { outer in
            pool.withObject(make: maker.make) { middle in
                pool.withObject(make: maker.make) { inner in [outer.serial, middle.serial, inner.serial] }
            }
        }
        #expect(serials == [1, 2, 3])
        #expect(maker.made == 3)
        #expect(pool.idleCount == 2)
    }

    @Test("with nothing idle and nothing built, the body does not run")
    func failedMake() {
        let pool = ScratchPool<Token>(capacity: 2)
        var ran = false
        let result: Int? = pool.withObject(make: { nil }) { _ in
            ran = true
            return 1
        }
        #expect(result == nil)
        #expect(!ran)
        #expect(pool.idleCount == 0)
    }
}

/// ECDSA verification on pooled `EC_KEY`s: each verification must run under its own public key, never
/// under the point a previous borrower set.
@Suite("Pooled ECDSA verification")
struct PooledVerificationTests {
    @Test("a key reused from the pool verifies under the new point, not the previous one")
    func freshPointEachTime() throws {
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
        #expect(group.verificationKeys.idleCount >= 1)
    }

    @Test("many tasks verifying under different keys at once each get their own key's answer")
    func concurrentKeys() async throws {
        let keys = try (0..<8).map { _ in try P256SigningKey() }
        let message: [UInt8] = Array("concurrent".utf8)
        let signatures = try keys.map { try $0.signature(for: message) }
        let wrong = await withTaskGroup(of: Int.self) { group in
            for round in 0..<64 {
                group.addTask {
                    var wrong = 0
                    for offset in 0..<keys.count {
                        let signer = (round + offset) % keys.count
                        let other = (signer + 1) % keys.count
                        if !keys[signer].publicKey.isValidSignature(signatures[signer], for: message, hash: .sha256) {
                            wrong += 1
                        }
                        if keys[other].publicKey.isValidSignature(signatures[signer], for: message, hash: .sha256) {
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
        #expect(group.verificationKeys.idleCount <= 16)
    }
}
