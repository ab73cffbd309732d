import Dispatch
import Storage
import Synchronization

/// The read connections of `SQLiteStore`, each used by one caller at a time on the caller's own thread: a read is
/// a checkout, the body's transaction, a check-in, with no thread hand-off.
///
/// Why on the caller's thread: a WAL reader never waits for the writer (it reads the snapshot the WAL index gives it
/// and takes no lock the writer holds; SQLite WAL, §"Concurrency"), so a read is bounded CPU work over pages in the
/// connection's cache or the OS page cache (about 30 µs for the login's read), like a signature verification; two
/// hand-offs to a reader queue and back cost more than that. What can block stays on dedicated threads: the writer and
/// its fsync (`SQLiteWriterConnection`), the checkpointer.
///
/// - More callers than connections: the pool never opens more than the configured count. A caller that finds none
///   free suspends (an async wait, no thread blocked) in FIFO order and is handed the next connection checked in.
/// - SQLITE_BUSY: the connections' busy timeout is 0 on the caller's thread, so a read never sleeps there in SQLite's
///   busy handler. A WAL reader meets SQLITE_BUSY only where another connection holds the database file's lock
///   (another process in `locking_mode=EXCLUSIVE`, the last connection closing) or runs WAL recovery. A read that met
///   it (seen by the connection's error funnel, even when the body swallowed the error) is rolled back and run again
///   on a thread of its own with the configured busy timeout, so its outcome is what the busy handler would have
///   given, and the thread that serves requests is free meanwhile. Bodies may run twice: read bodies are pure, as the
///   `Store` contract has it (PostgreSQL reruns them on a new connection).
/// - `close()` refuses new reads, lets every read already admitted (running or waiting for a connection) finish, and
///   only then closes the connections: none is used after it is closed.
final class SQLiteReaderPool: Sendable {
    private struct State: Sendable {
        /// Connections not checked out.
        var idle: [SQLiteReaderConnection]
        /// How many connections the pool opened.
        let connectionCount: Int
        /// Connections checked out (by a running read, or handed to a waiter): the ones not idle.
        var checkedOut: Int { connectionCount - idle.count }
        /// Callers waiting for a connection, oldest first.
        var waiters: [CheckedContinuation<Checkout, Never>] = []
        var isClosed = false
        /// `close()` calls waiting for the reads in flight.
        var closeWaiters: [CheckedContinuation<Void, Never>] = []
        var statistics = SQLiteReaderPool.Statistics()
    }

    /// Counts for tests and diagnostics.
    struct Statistics: Sendable, Equatable {
        /// Reads that found no free connection and waited for one.
        var waits = 0
        /// Reads that met SQLITE_BUSY and ran again on the busy thread.
        var busyRetries = 0
        /// Callers waiting for a connection now (the waiters' count, read when the counts are).
        var waiting = 0
    }

    private let state: Mutex<State>
    /// Where a read that met SQLITE_BUSY runs again with the configured busy timeout (concurrent: each such read
    /// waits on a thread of its own, never behind another).
    private let busyQueue: DispatchQueue
    /// The configured busy timeout, used only on `busyQueue`.
    private let busyTimeoutMilliseconds: Int32

    /// Opens `configuration.readerCount` read-only connections (opening reads nothing and takes no lock).
    init(_ configuration: SQLiteConfiguration, label: String) throws(StorageError) {
        var connections: [SQLiteReaderConnection] = []
        for _ in 0..<configuration.readerCount {
            connections.append(try SQLiteReaderConnection(configuration, busyTimeoutMilliseconds: 0))
        }
        state = Mutex(State(idle: connections, connectionCount: connections.count))
        busyQueue = DispatchQueue(label: label, attributes: .concurrent)
        busyTimeoutMilliseconds = Int32(configuration.busyTimeoutMilliseconds)
    }

    /// Runs `body` in one read transaction on a connection checked out for it, on the calling thread.
    /// - Throws: `.closed` once `close()` was called; the body's error; `.busy` when a lock held elsewhere outlasts
    ///   the configured busy timeout.
    func read<T: Sendable>(_ body: @escaping @Sendable (any StoreReader) throws -> T) async throws -> T {
        let connection = try await checkOut()
        defer { checkIn(connection) }
        let result = Result { try connection.read(body) }
        guard connection.takeMetBusy(), busyTimeoutMilliseconds > 0 else { return try result.get() }
        return try await readWaitingForLocks(body, on: connection)
    }

    /// Runs `body` again on `busyQueue`, where SQLite's busy handler may sleep up to the configured timeout.
    private func readWaitingForLocks<T: Sendable>(
        _ body: @escaping @Sendable (any StoreReader) throws -> T, on connection: SQLiteReaderConnection
    ) async throws -> T {
        state.withLock { $0.statistics.busyRetries += 1 }
        let timeout = busyTimeoutMilliseconds
        return try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<T, any Error>) in
            busyQueue.async {
                connection.setBusyTimeout(milliseconds: timeout)
                let result = Result { try connection.read(body) }
                connection.setBusyTimeout(milliseconds: 0)
                _ = connection.takeMetBusy()
                continuation.resume(with: result)
            }
        }
    }

    /// What a checkout gets: a connection, or the refusal of a closed pool.
    private enum Checkout: Sendable {
        case connection(SQLiteReaderConnection)
        case closed
    }

    /// A free connection, or the next one checked in (FIFO) when none is free.
    private func checkOut() async throws(StorageError) -> SQLiteReaderConnection {
        let checkout: Checkout
        if let free = state.withLock({ Self.take(&$0) }) {
            checkout = free
        } else {
            checkout = await withCheckedContinuation { (continuation: CheckedContinuation<Checkout, Never>) in
                // Decided again under the lock: a connection may have come back, or the pool closed, since.
                let now = state.withLock { state -> Checkout? in
                    if let free = Self.take(&state) { return free }
                    state.statistics.waits += 1
                    state.waiters.append(continuation)
                    return nil
                }
                if let now { continuation.resume(returning: now) }
            }
        }
        switch checkout {
        case .connection(let connection): return connection
        case .closed: throw StorageError(.closed, "SQLite store is closed")
        }
    }

    /// Takes a free connection (`nil`: none is free), or the refusal once closed.
    private static func take(_ state: inout State) -> Checkout? {
        guard !state.isClosed else { return .closed }
        guard let connection = state.idle.popLast() else { return nil }
        return .connection(connection)
    }

    /// Returns `connection`: to the oldest waiter if any, else to the free list; the last check-in after `close()`
    /// lets `close()` go on.
    private func checkIn(_ connection: SQLiteReaderConnection) {
        enum Next {
            case waiter(CheckedContinuation<Checkout, Never>)
            case closers([CheckedContinuation<Void, Never>])
        }
        let next = state.withLock { state -> Next in
            if !state.waiters.isEmpty {
                return .waiter(state.waiters.removeFirst())
            }
            state.idle.append(connection)
            guard state.isClosed, state.checkedOut == 0 else { return .closers([]) }
            defer { state.closeWaiters = [] }
            return .closers(state.closeWaiters)
        }
        switch next {
        case .waiter(let waiter): waiter.resume(returning: .connection(connection))
        case .closers(let closers): for closer in closers { closer.resume() }
        }
    }

    /// Refuses new reads, waits for the reads admitted before (running or waiting), then closes every connection.
    func close() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let idle = state.withLock { state -> Bool in
                state.isClosed = true
                guard state.checkedOut > 0 else { return true }
                state.closeWaiters.append(continuation)
                return false
            }
            if idle { continuation.resume() }
        }
        // Every connection is idle now and stays so (a closed pool checks none out); closing one twice, as a second
        // `close()` does, is harmless.
        for connection in state.withLock({ $0.idle }) { connection.close() }
    }

    /// The counts so far.
    var statistics: Statistics {
        state.withLock { state in
            var statistics = state.statistics
            statistics.waiting = state.waiters.count
            return statistics
        }
    }
}
