import Foundation
import Storage
import Synchronization
import TestSupport
import Testing
import Tokens

@testable import Commands
@testable import Endpoints
@testable import Service
@testable import passkeyd

/// A presentation that read the token live but lost the store's compare-and-set to a concurrent one (as under
/// a database that lets two writers read the same row, PostgreSQL's READ COMMITTED) gets what a second
/// presentation gets: reuse, and the family is revoked (RFC 9700 §4.14.2).
@Suite("POST /oauth/token, refresh_token grant: a presentation that loses the rotation race is reuse")
struct RefreshTokenLostRotationTests {
    @Test("a stale read of a live token, then a lost compare-and-set: invalid_grant, the family revoked")
    func lostRotationIsReuse() async throws {
        let store = StaleRefreshReadStore()
        let harness = try PasskeyHarness(store: store)
        var authenticator = Passkey()
        let first = try #require(try await harness.signUp(&authenticator)["refresh_token"]?.stringValue)
        let rotated = await harness.refresh(first)
        #expect(rotated.status == 200, "\(rotated.bodyText)")
        let successor = try #require(try rotated.jsonValue()["refresh_token"]?.stringValue)
        // The next write reads `first` as it was before the rotation committed: live.
        store.staleNextRead.withLock { $0 = true }
        let loser = await harness.refresh(first)
        #expect(loser.status == 403, "\(loser.bodyText)")
        #expect(loser.errorCode == "invalid_grant")
        #expect(harness.counted("refresh_token_reuse"))
        #expect(store.lostMarks.withLock { $0 } == 1, "the loser's compare-and-set was refused")
        #expect(await harness.refresh(successor).status == 403)
        #expect(harness.counted("invalid_grant:refresh_revoked"))
    }
}

/// A memory store whose next write, when `staleNextRead` is set, reads a refresh token once as it was before it
/// was rotated or revoked: the snapshot a concurrent writer had before the winner committed.
private final class StaleRefreshReadStore: Store {
    let staleNextRead = Mutex(false)
    /// How many `markRefreshTokenRotated` calls returned false.
    let lostMarks = Mutex(0)
    private let base = MemoryStore()

    func read<T: Sendable>(_ body: @escaping @Sendable (any StoreReader) throws -> T) async throws -> T {
        try await base.read(body)
    }

    func write<T: Sendable>(_ body: @escaping @Sendable (any StoreWriter) throws -> T) async throws -> T {
        let stale = staleNextRead.withLock { flag in
            defer { flag = false }
            return flag
        }
        return try await base.write { writer in
            try body(StaleRefreshReadWriter(base: writer, stale: stale, store: self))
        }
    }

    func close() async { await base.close() }
}

/// Forwards to the store's writer, except that the first `refreshToken(hash:)` returns the token unrotated and
/// unrevoked when `stale` is set, and a lost `markRefreshTokenRotated` is counted.
private final class StaleRefreshReadWriter: ForwardingStoreWriter {
    var stale: Bool
    let store: StaleRefreshReadStore

    init(base: any StoreWriter, stale: Bool, store: StaleRefreshReadStore) {
        self.stale = stale
        self.store = store
        super.init(base)
    }

    override func refreshToken(hash tokenHash: [UInt8]) throws(StorageError) -> Storage.RefreshToken? {
        guard var token = try writer.refreshToken(hash: tokenHash) else { return nil }
        if stale {
            stale = false
            token.rotatedAt = nil
            token.revokedAt = nil
        }
        return token
    }

    override func markRefreshTokenRotated(presentedHash: [UInt8], now: Date, replacement: Storage.RefreshToken)
        throws(StorageError) -> Bool
    {
        let marked = try writer.markRefreshTokenRotated(
            presentedHash: presentedHash, now: now, replacement: replacement)
        if !marked { store.lostMarks.withLock { $0 += 1 } }
        return marked
    }
}
