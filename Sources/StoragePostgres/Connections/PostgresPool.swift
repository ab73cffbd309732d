import Storage
import Synchronization

/// A bounded pool of `PostgresSlot`s: a transaction leases one slot, and waits (in FIFO order) while every slot
/// is leased. Connections open lazily on first use and reopen after a loss, so the pool needs no restart when
/// the database comes back.
final class PostgresPool: Sendable {
    private struct State {
        var free: [Int]
        var waiters: [Waiter] = []
        var nextWaiterID: UInt64 = 0
        var isClosed = false
    }

    /// A transaction waiting for a slot; the id lets its task's cancellation find it.
    private struct Waiter {
        let id: UInt64
        let continuation: CheckedContinuation<Int, any Error>
    }

    private let slots: [PostgresSlot]
    private let state: Mutex<State>
    let counters: PostgresCounters
    /// Whether the pool's connections (and its COMMIT-in-doubt questions) may try to connect now.
    let gate: ConnectGate

    init(
        configuration: PostgresConfiguration, counters: PostgresCounters = PostgresCounters(),
        gate: ConnectGate = ConnectGate()
    ) {
        self.counters = counters
        self.gate = gate
        slots = (0..<configuration.poolSize).map {
            PostgresSlot(index: $0, configuration: configuration, counters: counters, gate: gate)
        }
        state = Mutex(State(free: Array(slots.indices.reversed())))
    }

    /// The pool's part of `PostgresStatistics`: size, leased, waiting.
    var occupancy: (size: Int, inUse: Int, waiting: Int) {
        state.withLock { (slots.count, slots.count - $0.free.count, $0.waiters.count) }
    }

    /// Runs `work` on a leased slot's queue; the slot goes back to the pool afterwards.
    func withConnection<T: Sendable>(_ work: @escaping @Sendable (PostgresConnection) throws -> T) async throws -> T {
        let slot = try await lease()
        defer { release(slot) }
        return try await slot.run(work)
    }

    /// What a transaction gets from a closed pool.
    private static let closed = StorageError(.closed, "PostgreSQL store is closed")

    private func lease() async throws -> PostgresSlot {
        let free = try state.withLock { (state) throws(StorageError) -> Int? in
            if state.isClosed { throw Self.closed }
            return state.free.popLast()
        }
        if let free { return slots[free] }
        enum Next {
            case slot(Int)
            case closed
            case cancelled
            case wait
        }
        let waitStart = ContinuousClock.now
        defer {
            let waited = ContinuousClock.now - waitStart
            counters.leaseWaits.add(1, ordering: .relaxed)
            let nanoseconds = waited.components.seconds * 1_000_000_000 + waited.components.attoseconds / 1_000_000_000
            counters.leaseWaitNanoseconds.add(Int(nanoseconds), ordering: .relaxed)
        }
        // A task cancelled while it waits leaves the queue at once (CancellationError): a request whose deadline
        // answered 503 before its write began does not keep a place, nor its memory, until a slot comes round.
        let id = state.withLock { (state) -> UInt64 in
            state.nextWaiterID += 1
            return state.nextWaiterID
        }
        let index = try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Int, any Error>) in
                let immediate = state.withLock { (state) -> Next in
                    if state.isClosed { return .closed }
                    if let index = state.free.popLast() { return .slot(index) }
                    // Under the lock `onCancel` takes: a cancellation before this point is seen here, one after it
                    // finds the waiter.
                    if Task.isCancelled { return .cancelled }
                    state.waiters.append(Waiter(id: id, continuation: continuation))
                    return .wait
                }
                switch immediate {
                case .slot(let index): continuation.resume(returning: index)
                case .closed: continuation.resume(throwing: Self.closed)
                case .cancelled: continuation.resume(throwing: CancellationError())
                case .wait: break
                }
            }
        } onCancel: {
            let waiter = state.withLock { (state) -> Waiter? in
                guard let position = state.waiters.firstIndex(where: { $0.id == id }) else { return nil }
                return state.waiters.remove(at: position)
            }
            waiter?.continuation.resume(throwing: CancellationError())
        }
        return slots[index]
    }

    private func release(_ slot: PostgresSlot) {
        let waiter = state.withLock { (state) -> Waiter? in
            if !state.waiters.isEmpty { return state.waiters.removeFirst() }
            state.free.append(slot.index)
            return nil
        }
        waiter?.continuation.resume(returning: slot.index)
    }

    /// Refuses new work (waiting transactions get `.closed`), waits for the leased slots to come back, then
    /// closes every connection.
    func close() async {
        let waiters = state.withLock { (state) -> [Waiter] in
            state.isClosed = true
            defer { state.waiters.removeAll() }
            return state.waiters
        }
        for waiter in waiters {
            waiter.continuation.resume(throwing: Self.closed)
        }
        while state.withLock({ $0.free.count }) < slots.count {
            try? await Task.sleep(for: .milliseconds(2))
        }
        for slot in slots { await slot.close() }
    }
}
