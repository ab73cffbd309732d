import Testing

@testable import Crypto

/// The block pool behind `SecureRandom.bytes(count:)`'s short draws.
@Suite("RandomBlockPool")
struct RandomBlockPoolTests {
    @Test("a draw is handed out once: its bytes are zeroed in the block and the rest of the block moves on")
    func handsOutOnce() throws {
        let pool = RandomBlockPool(blockByteCount: 4096)
        let first = try pool.bytes(count: 32)
        #expect(first.count == 32)
        #expect(pool.remainingByteCount == 4096 - 32)
        #expect(pool.handedOutBytesAreZero())
        let second = try pool.bytes(count: 32)
        #expect(second != first)
        #expect(pool.remainingByteCount == 4096 - 64)
        #expect(pool.handedOutBytesAreZero())
        #expect(first.contains { $0 != 0 } || second.contains { $0 != 0 })
    }

    @Test("a draw longer than what is left of the block starts a new block")
    func refills() throws {
        let pool = RandomBlockPool(blockByteCount: RandomBlockPool.largestPooledDraw)
        let first = try pool.bytes(count: 40)
        #expect(pool.remainingByteCount == RandomBlockPool.largestPooledDraw - 40)
        let second = try pool.bytes(count: 40)
        #expect(second.count == 40)
        #expect(second != first)
        #expect(pool.remainingByteCount == RandomBlockPool.largestPooledDraw - 40)
        #expect(pool.handedOutBytesAreZero())
    }

    @Test("the pool refuses draws outside 0...largestPooledDraw; SecureRandom serves longer ones from RAND_bytes")
    func bounds() throws {
        let pool = RandomBlockPool(blockByteCount: 4096)
        #expect(try pool.bytes(count: 0).isEmpty)
        #expect(throws: CryptoError(.randomFailure, "")) { try pool.bytes(count: -1) }
        #expect(throws: CryptoError(.randomFailure, "")) {
            try pool.bytes(count: RandomBlockPool.largestPooledDraw + 1)
        }
        #expect(try SecureRandom.bytes(count: RandomBlockPool.largestPooledDraw + 1).count == 65)
        #expect(try SecureRandom.bytes(count: 1000).count == 1000)
    }

    @Test("many tasks drawing from one pool at once never get the same bytes")
    func concurrentDraws() async throws {
        let pool = RandomBlockPool(blockByteCount: 256)
        let draws = try await withThrowingTaskGroup(of: [UInt8].self) { group in
            for _ in 0..<256 {
                group.addTask { try pool.bytes(count: 16) }
            }
            var all: [[UInt8]] = []
            for try await draw in group { all.append(draw) }
            return all
        }
        #expect(draws.count == 256)
        #expect(Set(draws).count == 256)
        #expect(pool.handedOutBytesAreZero())
    }
}
