import Foundation
import HTTP
import JSON
import Storage
import StorageSQLite
import Synchronization
import TestSupport
import Testing

@testable import Endpoints
@testable import Service

/// A store that reads, and writes into a MemoryStore until `refusal` is set: then every write fails with it (a
/// PostgreSQL whose disk filled up while its heartbeat row still fits would refuse only some; this one refuses all,
/// and counts the writes attempted so a test can tell whether a heartbeat ran).
final class SwitchableWriteStore: Store {
    let base = MemoryStore()
    let refusal = Mutex<StorageError?>(nil)
    let writes = Atomic<Int>(0)

    func read<T: Sendable>(_ body: @escaping @Sendable (any StoreReader) throws -> T) async throws -> T {
        try await base.read(body)
    }

    func write<T: Sendable>(_ body: @escaping @Sendable (any StoreWriter) throws -> T) async throws -> T {
        writes.add(1, ordering: .relaxed)
        if let refusal = refusal.withLock({ $0 }) { throw refusal }
        return try await base.write(body)
    }

    func close() async { await base.close() }
}

@Suite("A full disk or a read-only database: 503 with Retry-After, a warning saying which, and /readyz knows")
struct DiskFullTests {
    @Test(
        "a SQLite store on a full disk: a write is 503 + Retry-After, logged as disk full (no bug?), /readyz says so; freed, writes go on"
    )
    func sqliteDiskFull() async throws {
        let directory = (NSTemporaryDirectory() as NSString).appendingPathComponent(
            "passkeyd-full-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let store = try await SQLiteStore.open(SQLiteConfiguration(directory: directory, readerCount: 1))
        let harness = try PasskeyHarness(store: store)
        #expect(try await harness.signUpAttempt(email: "first@example.com").status == 200)
        // The disk fills: a write that needs the file to grow meets SQLITE_FULL, and the disk stays full.
        try await store.setMaxPageCountForTesting(1)
        await store.setDiskStaysFullForTesting(true)
        await #expect(throws: StorageError(.unavailable, "")) {
            _ = try await store.write { writer in
                try writer.appendSecurityEvent(
                    SecurityEvent(
                        occurredAt: Date(), storedKind: "bulky", outcome: "success",
                        detail: Array(repeating: 7, count: 20_000)))
            }
        }
        let refused = try await harness.signUpAttempt(email: "second@example.com")
        #expect(refused.status == 503, "\(refused.bodyText)")
        #expect(refused.headers["Retry-After"] == "1")
        #expect(refused.bodyText.contains("temporarily_unavailable"))
        #expect(!harness.logLines.all.contains { $0.contains("bug?") }, "\(harness.logLines.all)")
        let logged = harness.logLines.all.filter { $0.contains("storage_disk_full") }
        try #require(logged.count == 1, "\(harness.logLines.all)")
        #expect(logged[0].contains("database disk full"), "\(logged[0])")
        #expect(logged[0].contains(#""level":"warning""#), "\(logged[0])")
        let ready = await harness.client.get("/readyz")
        #expect(ready.status == 503)
        #expect(ready.headers["Retry-After"] == "1")
        #expect(ready.bodyText.contains(#""status":"unavailable""#), "\(ready.bodyText)")
        #expect(ready.bodyText.contains("disk is full"), "\(ready.bodyText)")
        // Space freed: the next write goes through on the same store, without a restart.
        await store.setDiskStaysFullForTesting(false)
        try await store.setMaxPageCountForTesting(nil)
        #expect(try await harness.signUpAttempt(email: "third@example.com").status == 200)
        await store.close()
    }

    @Test("a read-only database is 503, logged as read-only")
    func readOnly() async throws {
        let store = SwitchableWriteStore()
        store.refusal.withLock { $0 = .unavailable(.readOnly, "PostgreSQL 25006: read-only (test)") }
        let harness = try PasskeyHarness(store: store)
        let refused = await harness.post("/oauth/revoke", RevokeRequest.body())
        #expect(refused.status == 503, "\(refused.bodyText)")
        #expect(refused.headers["Retry-After"] == "1")
        let logged = harness.logLines.all.filter { $0.contains("storage_read_only") }
        try #require(logged.count == 1, "\(harness.logLines.all)")
        #expect(logged[0].contains("database is read-only"), "\(logged[0])")
        #expect(!logged[0].contains("bug?"))
        let ready = await harness.client.get("/readyz")
        #expect(ready.status == 503)
        #expect(ready.bodyText.contains("read-only"), "\(ready.bodyText)")
    }

    @Test(
        "a request's write refused for a full disk makes /readyz unavailable at once, without waiting for a heartbeat")
    func refusalSeenByReadiness() async throws {
        let store = SwitchableWriteStore()
        let harness = try PasskeyHarness(store: store)
        #expect(await harness.client.get("/readyz").status == 200)
        store.refusal.withLock { $0 = .unavailable(.diskFull, "PostgreSQL 53100: could not extend file (test)") }
        #expect(await harness.post("/oauth/revoke", RevokeRequest.body()).status == 503)
        let writes = store.writes.load(ordering: .relaxed)
        let ready = await harness.client.get("/readyz")
        #expect(ready.status == 503, "\(ready.bodyText)")
        #expect(ready.bodyText.contains("disk is full"), "\(ready.bodyText)")
        // The refused request told readiness; no heartbeat was needed (one would fit where other writes do not).
        #expect(store.writes.load(ordering: .relaxed) == writes)
        #expect(harness.logLines.all.contains { $0.contains("not ready: database disk full") })
    }

    @Test("a refused write counts for `failureHold` only: after it the heartbeat decides again")
    func refusalExpires() async {
        let probe = ReadinessProbe(store: MemoryStore(), clock: SystemClock(), failureHold: .zero)
        probe.noteUnavailable(.diskFull, reason: "test")
        #expect(await probe.status() == .ready)
        let holding = ReadinessProbe(store: MemoryStore(), clock: SystemClock())
        #expect(await holding.status() == .ready)
        holding.noteUnavailable(.diskFull, reason: "test")
        #expect(await holding.status() == .unavailable("test", .diskFull))
    }
}
