import Crypto
import Foundation
import HTTP
import Storage
import StorageSQLite
import Synchronization
import TestSupport
import Testing
import Tokens

@testable import Commands
@testable import Endpoints
@testable import Service
@testable import passkeyd

/// A rotated refresh token presented again by its client within `tokens.refresh_token_reuse_grace_seconds` (10 s by
/// default), while its successor was never presented, is the retry of a rotation whose answer was lost: it gets a
/// new successor and the unreceived one is spent; anything else stays reuse (RFC 9700 §4.14.2). On the in-memory
/// store and on SQLite.
@Suite("POST /oauth/token, refresh_token grant: a retry within the grace window is no reuse")
struct RefreshTokenRetryTests {
    /// A harness on `driver` ("memory" or "sqlite", in a directory `cleanup` removes) with a user signed up: the
    /// harness, the family's first refresh token, and the cleanup.
    static func loggedIn(_ driver: String, store wrap: (any Store) -> any Store = { $0 }) async throws -> (
        PasskeyHarness, String, @Sendable () -> Void
    ) {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("passkeyd-retry-\(UUID())").path
        let store: any Store =
            driver == "sqlite"
            ? try await SQLiteStore.open(SQLiteConfiguration(directory: directory, readerCount: 2)) : MemoryStore()
        let harness = try PasskeyHarness(store: wrap(store))
        var authenticator = Passkey()
        let first = try #require(try await harness.signUp(&authenticator)["refresh_token"]?.stringValue)
        return (harness, first, { try? FileManager.default.removeItem(atPath: directory) })
    }

    /// The refresh token of a 200 answer.
    static func refreshToken(_ response: Response) throws -> String {
        try #require(response.status == 200, "\(response.status) \(response.bodyText)")
        return try #require(try response.jsonValue()["refresh_token"]?.stringValue)
    }

    /// The stored records of `tokens`, in that order.
    static func records(_ harness: PasskeyHarness, _ tokens: [String]) async throws -> [Storage.RefreshToken] {
        try await harness.context.store.read { reader in
            try tokens.map { try #require(try reader.refreshToken(hash: try Tokens.RefreshToken(presented: $0).hash)) }
        }
    }

    @Test(
        "a retry seconds after gets a working new token; the lost one is spent, the family intact and audited",
        arguments: ["memory", "sqlite"])
    func retry(driver: String) async throws {
        let (harness, first, cleanup) = try await Self.loggedIn(driver)
        defer { cleanup() }
        let lost = try Self.refreshToken(await harness.refresh(first))
        harness.clock.advance(9)
        let retried = try Self.refreshToken(await harness.refresh(first))
        #expect(retried != lost)
        #expect(harness.counted("refresh_token_retry"))
        #expect(!harness.counted("refresh_token_reuse"))
        let stored = try await Self.records(harness, [first, lost, retried])
        #expect(stored.allSatisfy { $0.revokedAt == nil && $0.familyID == stored[0].familyID })
        #expect(stored[0].successorHash == stored[2].tokenHash, "the first token names the retry's successor")
        #expect(stored[1].rotatedAt != nil && stored[1].successorHash == nil, "the lost successor is spent")
        // The same absolute end, a new idle window from the retry.
        #expect(stored[2].absoluteExpiresAt == stored[0].absoluteExpiresAt)
        #expect(stored[2].idleExpiresAt == harness.clock.now().addingTimeInterval(1_209_600))
        let events = try await harness.context.store.read { try $0.securityEvents(userID: stored[0].userID, limit: 10) }
        #expect(events.first?.knownKind == .refreshRetry)
        #expect(events.first?.outcome == AuthenticationAuditEvent.success)
        #expect(events.first?.familyID == stored[0].familyID)
        // The family goes on: the retry's token rotates, its successor too.
        let next = try Self.refreshToken(await harness.refresh(retried))
        #expect(await harness.refresh(next).status == 200)
    }

    @Test(
        "the lost successor presented after the retry is reuse: someone else held it, the family is revoked",
        arguments: ["memory", "sqlite"])
    func lostSuccessorIsReuse(driver: String) async throws {
        let (harness, first, cleanup) = try await Self.loggedIn(driver)
        defer { cleanup() }
        let lost = try Self.refreshToken(await harness.refresh(first))
        let retried = try Self.refreshToken(await harness.refresh(first))
        let stale = await harness.refresh(lost)
        #expect(stale.status == 403)
        #expect(stale.errorCode == "invalid_grant")
        #expect(harness.counted("refresh_token_reuse"))
        #expect(await harness.refresh(retried).status == 403)
        #expect(harness.counted("invalid_grant:refresh_revoked"))
    }

    @Test(
        "a retry may be retried while the window lasts; each spends the answer before it",
        arguments: ["memory", "sqlite"])
    func retriedTwice(driver: String) async throws {
        let (harness, first, cleanup) = try await Self.loggedIn(driver)
        defer { cleanup() }
        _ = try Self.refreshToken(await harness.refresh(first))
        harness.clock.advance(3)
        let second = try Self.refreshToken(await harness.refresh(first))
        harness.clock.advance(3)
        let third = try Self.refreshToken(await harness.refresh(first))
        // The window runs from the rotation, not from the last retry.
        harness.clock.advance(4)
        #expect(await harness.refresh(first).status == 403)
        #expect(harness.counted("refresh_token_reuse"))
        #expect(await harness.refresh(third).status == 403)
        #expect(await harness.refresh(second).status == 403)
    }

    @Test(
        "after the window, after the successor was used, or with the setting at 0: reuse, the family revoked",
        arguments: ["memory", "sqlite"])
    func reuse(driver: String) async throws {
        // At the window's end.
        let (late, lateFirst, lateCleanup) = try await Self.loggedIn(driver)
        defer { lateCleanup() }
        let lateSuccessor = try Self.refreshToken(await late.refresh(lateFirst))
        late.clock.advance(10)
        #expect(await late.refresh(lateFirst).status == 403)
        #expect(late.counted("refresh_token_reuse"))
        #expect(await late.refresh(lateSuccessor).status == 403)
        // The successor was used: the client had it.
        let (used, usedFirst, usedCleanup) = try await Self.loggedIn(driver)
        defer { usedCleanup() }
        let usedSuccessor = try Self.refreshToken(await used.refresh(usedFirst))
        let newest = try Self.refreshToken(await used.refresh(usedSuccessor))
        let replayed = await used.refresh(usedFirst)
        #expect(replayed.status == 403)
        #expect(replayed.errorCode == "invalid_grant")
        #expect(used.counted("refresh_token_reuse"))
        #expect(await used.refresh(newest).status == 403)
        // The window switched off.
        let off = try PasskeyHarness(["PASSKEYD_TOKENS_REFRESH_TOKEN_REUSE_GRACE_SECONDS": "0"])
        var authenticator = Passkey()
        let offFirst = try #require(try await off.signUp(&authenticator)["refresh_token"]?.stringValue)
        let offSuccessor = try Self.refreshToken(await off.refresh(offFirst))
        #expect(await off.refresh(offFirst).status == 403)
        #expect(off.counted("refresh_token_reuse"))
        #expect(await off.refresh(offSuccessor).status == 403)
    }

    @Test(
        "another client's presentation is no retry: refused as before, the family untouched",
        arguments: ["memory", "sqlite"])
    func otherClient(driver: String) async throws {
        let (harness, first, cleanup) = try await Self.loggedIn(driver)
        defer { cleanup() }
        _ = try Self.refreshToken(await harness.refresh(first))
        let foreign = await harness.refresh(first, clientID: "other")
        #expect(foreign.status == 403)
        #expect(harness.counted("invalid_grant:refresh_other_client"))
        #expect(!harness.counted("refresh_token_retry"))
        // Its own client's retry still gets the answer.
        #expect(await harness.refresh(first).status == 200)
    }

    @Test("a retry that fails the request's checks (a wider scope) is reuse", arguments: ["memory", "sqlite"])
    func retryWithOtherRequest(driver: String) async throws {
        let (harness, first, cleanup) = try await Self.loggedIn(driver)
        defer { cleanup() }
        let lost = try Self.refreshToken(await harness.refresh(first))
        let wider = await harness.post(
            "/oauth/token",
            [
                "grant_type": "refresh_token", "client_id": "app", "refresh_token": .string(first),
                "scope": "openid phone",
            ])
        #expect(wider.status == 403)
        #expect(wider.errorCode == "invalid_grant")
        #expect(harness.counted("refresh_token_reuse"))
        #expect(await harness.refresh(lost).status == 403)
    }

    @Test("a DPoP-bound family: a retry with the key's proof is a retry, with another key's it is reuse")
    func dpop() async throws {
        let harness = try PasskeyHarness()
        let prover = try DPoPProver()
        let first = try #require(
            try await DPoPTests.signUp(harness, prover: prover).jsonValue()["refresh_token"]?.stringValue)
        _ = try Self.refreshToken(try await DPoPTests.refresh(harness, first, prover: prover))
        let retried = try Self.refreshToken(try await DPoPTests.refresh(harness, first, prover: prover))
        #expect(harness.counted("refresh_token_retry"))
        let thief = try await DPoPTests.refresh(harness, first, prover: try DPoPProver())
        #expect(thief.status == 403)
        #expect(thief.errorCode == "invalid_grant")
        #expect(harness.counted("refresh_token_reuse"))
        #expect(try await DPoPTests.refresh(harness, retried, prover: prover).status == 403)
    }

    @Test(
        "two retries at once: one wins, the loser's compare-and-set fails and is reuse",
        arguments: ["memory", "sqlite"])
    func concurrentRetries(driver: String) async throws {
        let (harness, first, cleanup) = try await Self.loggedIn(driver) { RacingRetryStore(base: $0) }
        defer { cleanup() }
        let store = try #require(harness.context.backingStore as? RacingRetryStore)
        _ = try Self.refreshToken(await harness.refresh(first))
        // Another retry of `first` commits between this one's read and its compare-and-set.
        store.raceNextRetry.withLock { $0 = true }
        let loser = await harness.refresh(first)
        #expect(loser.status == 403, "\(loser.bodyText)")
        #expect(loser.errorCode == "invalid_grant")
        #expect(store.retries.withLock { $0 } == [true, false], "the rival's retry applied, this one's did not")
        #expect(harness.counted("refresh_token_reuse"))
        #expect(!harness.counted("refresh_token_retry"))
    }
}

/// A store whose next write, when `raceNextRetry` is set, lets a rival retry of the same token apply just before the
/// retry the grant attempts: what a concurrent retry on another node that committed between this one's read and its
/// compare-and-set leaves.
private final class RacingRetryStore: Store {
    let raceNextRetry = Mutex(false)
    /// The results of the `reissueRefreshToken` calls, the rival's included, in order.
    let retries = Mutex<[Bool]>([])
    private let base: any Store

    init(base: any Store) {
        self.base = base
    }

    func read<T: Sendable>(_ body: @escaping @Sendable (any StoreReader) throws -> T) async throws -> T {
        try await base.read(body)
    }

    func write<T: Sendable>(_ body: @escaping @Sendable (any StoreWriter) throws -> T) async throws -> T {
        let race = raceNextRetry.withLock { flag in
            defer { flag = false }
            return flag
        }
        return try await base.write { writer in
            try body(RacingRetryWriter(base: writer, race: race, store: self))
        }
    }

    func close() async { await base.close() }
}

/// Forwards to the store's writer; when `race` is set, a retry first lets a rival replacement apply.
private final class RacingRetryWriter: ForwardingStoreWriter {
    let race: Bool
    let store: RacingRetryStore

    init(base: any StoreWriter, race: Bool, store: RacingRetryStore) {
        self.race = race
        self.store = store
        super.init(base)
    }

    override func reissueRefreshToken(
        presentedHash: [UInt8], supersededHash: [UInt8], now: Date, replacement: Storage.RefreshToken
    ) throws(StorageError) -> Bool {
        if race {
            var rival = replacement
            rival.tokenHash = Digest.sha256(replacement.tokenHash)
            let applied = try writer.reissueRefreshToken(
                presentedHash: presentedHash, supersededHash: supersededHash, now: now, replacement: rival)
            store.retries.withLock { $0.append(applied) }
        }
        let applied = try writer.reissueRefreshToken(
            presentedHash: presentedHash, supersededHash: supersededHash, now: now, replacement: replacement)
        store.retries.withLock { $0.append(applied) }
        return applied
    }
}
