import Dispatch
import Foundation
import Storage
import Synchronization
import TestSupport
import Testing

@testable import StorageSQLite

/// Reads on the caller's thread from a pool of connections (`SQLiteReaderPool`): waiting for a connection, one
/// snapshot per read, reads racing `close()`, SQLITE_BUSY, damage.
@Suite("SQLite reads on the calling thread")
struct SQLiteReaderPoolTests {
    @Test("more concurrent reads than connections: a read waits for a connection without holding a thread, all answer")
    func moreReadsThanConnections() async throws {
        let directory = temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let store = try await SQLiteStore.open(SQLiteConfiguration(directory: directory, readerCount: 1))
        try await Self.appendEvents(store, count: 3)
        // The one connection is held by a read that waits for the test's signal, on a thread of its own (a task
        // whose executor is a dispatch queue: the read runs its body on that thread, the caller's)…
        let held = Gate()
        let thread = QueueTaskExecutor()
        let first = Task(executorPreference: thread) {
            try await store.read { reader in
                let onCallersThread = thread.isCurrent
                held.enter()
                held.waitForRelease()
                return onCallersThread ? try reader.securityEvents(after: 0, limit: 100).count : -1
            }
        }
        try await held.waitUntilEntered()
        // …so the next read waits for it: suspended, its thread free (the test itself still runs here).
        let second = Task { try await store.read { try $0.securityEvents(after: 0, limit: 100).count } }
        try await waitUntil { store.readerStatistics.waiting == 1 }
        held.release()
        #expect(try await first.value == 3)
        #expect(try await second.value == 3)
        // And many at once on two connections: each gets its own answer.
        await store.close()
        let wide = try await SQLiteStore.open(SQLiteConfiguration(directory: directory, readerCount: 2))
        let counts = try await withThrowingTaskGroup(of: Int.self) { group in
            for _ in 0..<64 {
                group.addTask { try await wide.read { try $0.securityEvents(after: 0, limit: 100).count } }
            }
            return try await group.reduce(into: [Int]()) { $0.append($1) }
        }
        #expect(counts == Array(repeating: 3, count: 64))
        #expect(wide.readerStatistics.waiting == 0)
        await wide.close()
    }

    @Test("a read sees one snapshot: two statements agree while writes commit between them")
    func oneSnapshotPerRead() async throws {
        let directory = temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let store = try await SQLiteStore.open(
            SQLiteConfiguration(directory: directory, synchronous: .normal, readerCount: 2))
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask {
                // Each write appends two events: a snapshot always holds an even number.
                for n in 0..<300 {
                    try await store.write { writer in
                        for half in 0..<2 {
                            _ = try writer.appendSecurityEvent(
                                SecurityEvent(occurredAt: Date(), storedKind: "e\(n)-\(half)", outcome: "success"))
                        }
                    }
                }
            }
            for _ in 0..<4 {
                group.addTask {
                    for _ in 0..<150 {
                        let (first, second) = try await store.read { reader in
                            (
                                try reader.securityEvents(after: 0, limit: 10_000).count,
                                try reader.securityEvents(after: 0, limit: 10_000).count
                            )
                        }
                        #expect(first == second)
                        #expect(first % 2 == 0)
                    }
                }
            }
            try await group.waitForAll()
        }
        await store.close()
    }

    @Test("close waits for a read in flight, refuses new reads, and then no connection is left open")
    func closeWaitsForReads() async throws {
        let directory = temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let configuration = SQLiteConfiguration(directory: directory, readerCount: 2)
        let store = try await SQLiteStore.open(configuration)
        try await Self.appendEvents(store, count: 2)
        let held = Gate()
        let inFlight = Task(executorPreference: QueueTaskExecutor()) {
            try await store.read { reader in
                let before = try reader.securityEvents(after: 0, limit: 100).count
                held.enter()
                held.waitForRelease()
                // Still usable after close() was called: close waits for this read.
                return before + (try reader.securityEvents(after: 0, limit: 100).count)
            }
        }
        try await held.waitUntilEntered()
        let closing = Task { await store.close() }
        try await waitUntil {
            do {
                _ = try await store.read { try $0.lastHeartbeat() }
                return false
            } catch let error as StorageError {
                return error.code == .closed
            }
        }
        held.release()
        #expect(try await inFlight.value == 4)
        await closing.value
        // The checkpointer closes last: it removes the WAL only as the database's last connection.
        #expect(!FileManager.default.fileExists(atPath: configuration.path + "-wal"))
    }

    @Test("a second close returns, and reads stay refused")
    func closeTwice() async throws {
        let directory = temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let configuration = SQLiteConfiguration(directory: directory, readerCount: 2)
        let store = try await SQLiteStore.open(configuration)
        await store.close()
        let pool = try SQLiteReaderPool(configuration, label: "test.close-twice")
        #expect(try await pool.read { try $0.lastHeartbeat() } == nil)
        await pool.close()
        let closedAgain = Mutex(false)
        // Not awaited directly: a second close that waited for reads no longer in flight would hang the suite.
        Task {
            await pool.close()
            closedAgain.withLock { $0 = true }
        }
        try await waitUntil { closedAgain.withLock { $0 } }
        await #expect(throws: StorageError(.closed, "")) { try await pool.read { try $0.lastHeartbeat() } }
    }

    @Test("reads racing close either answer or are refused with .closed, and close leaves no connection open")
    func readsRacingClose() async throws {
        let directory = temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let configuration = SQLiteConfiguration(directory: directory, readerCount: 2)
        let store = try await SQLiteStore.open(configuration)
        try await Self.appendEvents(store, count: 5)
        let answered = Counter()
        let reads = Task {
            await withTaskGroup(of: Result<Int, StorageError>.self) { group in
                for _ in 0..<200 {
                    group.addTask {
                        do {
                            let count = try await store.read { try $0.securityEvents(after: 0, limit: 100).count }
                            answered.add()
                            return .success(count)
                        } catch let error as StorageError {
                            return .failure(error)
                        } catch {
                            return .failure(StorageError(.internalFailure, "\(error)"))
                        }
                    }
                }
                return await group.reduce(into: [Result<Int, StorageError>]()) { $0.append($1) }
            }
        }
        // Close once reads are under way, while the others still run or wait for a connection.
        try await waitUntil { answered.value >= 10 }
        await store.close()
        let outcomes = await reads.value
        for outcome in outcomes {
            switch outcome {
            case .success(let count): #expect(count == 5)
            case .failure(let error): #expect(error.code == .closed, "\(error)")
            }
        }
        #expect(!FileManager.default.fileExists(atPath: configuration.path + "-wal"))
    }

    @Test("SQLITE_BUSY on the calling thread: the read runs again on a thread of its own, waiting for the lock there")
    func busyReadWaitsOffTheCallersThread() async throws {
        let directory = temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let configuration = SQLiteConfiguration(directory: directory, busyTimeoutMilliseconds: 600_000, readerCount: 4)
        let store = try await SQLiteStore.open(configuration)
        try await Self.appendEvents(store, count: 3)
        await store.close()
        // Another connection holds the database file's EXCLUSIVE lock (WAL mode, locking_mode=EXCLUSIVE): a reader
        // cannot take its SHARED lock until that connection closes.
        let locker = Mutex<SQLiteDatabase?>(try Self.exclusiveLocker(configuration))
        let pool = try SQLiteReaderPool(configuration, label: "test.busy")
        let swallowed = -1
        // The body swallows its error: the connection's error funnel still saw SQLITE_BUSY.
        let reads = (0..<4).map { _ in
            Task { try await pool.read { (try? $0.securityEvents(after: 0, limit: 100).count) ?? swallowed } }
        }
        // Each read met SQLITE_BUSY at once on its own thread and waits on the busy queue; with the configured
        // 600 s on the caller's thread, none would get there.
        try await waitUntil { pool.statistics.busyRetries == 4 }
        locker.withLock { $0 = nil }
        for read in reads { #expect(try await read.value == 3) }
        // Without a lock held elsewhere, a read runs once.
        #expect(try await pool.read { try $0.securityEvents(after: 0, limit: 100).count } == 3)
        #expect(pool.statistics.busyRetries == 4)
        await pool.close()
    }

    @Test("SQLITE_BUSY with a busy timeout of 0 is the same .busy error at once, no second run")
    func busyWithoutTimeout() async throws {
        let directory = temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let configuration = SQLiteConfiguration(directory: directory, busyTimeoutMilliseconds: 0, readerCount: 1)
        let store = try await SQLiteStore.open(configuration)
        await store.close()
        let locker = try Self.exclusiveLocker(configuration)
        let pool = try SQLiteReaderPool(configuration, label: "test.busy")
        await #expect(throws: StorageError(.busy, "")) { try await pool.read { try $0.lastHeartbeat() } }
        #expect(pool.statistics.busyRetries == 0)
        withExtendedLifetime(locker) {}
        await pool.close()
    }

    @Test("a damaged page met by a read marks the store damaged: later writes are refused")
    func damageMetInARead() async throws {
        let directory = temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let creating = try await SQLiteStore.open(SQLiteConfiguration(directory: directory, synchronous: .normal))
        try await DamagedDatabaseFile.fill(creating)
        await creating.close()
        // The smallest page cache, so that the pages read after the damage come from the file.
        let store = try await SQLiteStore.open(
            SQLiteConfiguration(directory: directory, synchronous: .normal, readerCount: 1, cacheKibibytes: 64))
        try DamagedDatabaseFile.damage((directory as NSString).appendingPathComponent("passkeyd.sqlite"))
        #expect(store.damage == nil)
        await #expect(throws: StorageError(.corrupt, "")) {
            try await store.read { try $0.securityEvents(after: 0, limit: 10_000) }
        }
        #expect(store.damage != nil)
        await #expect(throws: StorageError(.corrupt, "")) {
            try await store.write { try $0.recordHeartbeat(at: Date()) }
        }
        await store.close()
    }

    // MARK: helpers

    /// Appends `count` events in one write.
    static func appendEvents(_ store: SQLiteStore, count: Int) async throws {
        try await store.write { writer in
            for n in 0..<count {
                _ = try writer.appendSecurityEvent(
                    SecurityEvent(occurredAt: Date(), storedKind: "event-\(n)", outcome: "success"))
            }
        }
    }

    /// A connection holding the database file's EXCLUSIVE lock until it is released (closed).
    static func exclusiveLocker(_ configuration: SQLiteConfiguration) throws -> SQLiteDatabase {
        let locker = try SQLiteDatabase(path: configuration.path, readOnly: false, busyTimeoutMilliseconds: 10_000)
        // One statement per call: the write transaction takes the EXCLUSIVE lock, kept after COMMIT in this mode.
        for statement in [
            "PRAGMA locking_mode = EXCLUSIVE", "SELECT count(*) FROM sqlite_master", "BEGIN IMMEDIATE", "COMMIT",
        ] {
            try locker.executeScript(statement)
        }
        return locker
    }
}

/// A task executor on a serial dispatch queue of its own: a caller's thread that is not the cooperative pool's (as
/// the HTTP threads are), so a test body may block it without starving the pool.
private final class QueueTaskExecutor: TaskExecutor {
    private let queue = DispatchQueue(label: "test.reader-pool.caller")
    private let key = DispatchSpecificKey<Bool>()

    init() { queue.setSpecific(key: key, value: true) }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let executor = asUnownedTaskExecutor()
        queue.async { job.runSynchronously(on: executor) }
    }

    /// Whether the current thread runs this executor's queue.
    var isCurrent: Bool { DispatchQueue.getSpecific(key: key) == true }
}

/// A read body held at a point until the test releases it (the body blocks its thread: a test-only stand-in for a
/// long read).
private final class Gate: Sendable {
    private let entered = Mutex(false)
    private let released = DispatchSemaphore(value: 0)

    /// Called by the body when it reaches the point.
    func enter() { entered.withLock { $0 = true } }

    /// Called by the body: blocks until `release()` (at most a minute, so a failing test does not hang).
    func waitForRelease() { _ = released.wait(timeout: .now() + 60) }

    /// Lets the body go on.
    func release() { released.signal() }

    /// Waits until the body reached the point.
    func waitUntilEntered() async throws { try await waitUntil { self.entered.withLock { $0 } } }
}

/// A count shared by concurrent tasks.
private final class Counter: Sendable {
    private let count = Mutex(0)

    /// Adds one.
    func add() { count.withLock { $0 += 1 } }

    /// The count now.
    var value: Int { count.withLock { $0 } }
}

/// Polls `condition` until it holds (the event the test waits for), failing after a minute instead of hanging.
private func waitUntil(_ condition: () async throws -> Bool) async throws {
    let limit = ContinuousClock.now + .seconds(60)
    while try await !condition() {
        guard ContinuousClock.now < limit else {
            Issue.record("the awaited event did not happen within a minute")
            throw CancellationError()
        }
        try await Task.sleep(for: .milliseconds(2))
    }
}
