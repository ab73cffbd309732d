import Storage
import Synchronization

/// A bounded pool of `PostgresSlot`s: a transaction leases one slot, and waits (in FIFO order) while every slot
/// is leased. Connections open lazily on first use and reopen after a loss, so the pool needs no restart when
/// the database comes back.
final class PostgresPool: Sendable {
    private struct State {
        var free: [Int]
        var waiters: [CheckedContinuation<Int, any Error>] = []
        var isClosed = false
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

    private func lease() async throws -> PostgresSlot {
        enum Next {
            case slot(Int)
            case closed
            case wait
        }
        let next = state.withLock { (state) -> Next in
            if state.isClosed { return .closed }
            if let index = state.free.popLast() { return .slot(index) }
            return .wait
        }
        switch next {
        case .slot(let index): return slots[index]
        case .closed: throw StorageError(.closed, "PostgreSQL store is closed")
        case .wait: break
        }
        let waitStart = ContinuousClock.now
        defer {
            let waited = ContinuousClock.now - waitStart
            counters.leaseWaits.add(1, ordering: .relaxed)
            let nanoseconds = waited.components.seconds * 1_000_000_000 + waited.components.attoseconds / 1_000_000_000
            counters.leaseWaitNanoseconds.add(Int(nanoseconds), ordering: .relaxed)
        }
        let index = try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Int, any Error>) in
            let immediate = state.withLock { (state) -> Next in
                if state.isClosed { return .closed }
                if let index = state.free.popLast() { return .slot(index) }
                state.waiters.append(continuation)
                return .wait
            }
            switch immediate {
            case .slot(let index): continuation.resume(returning: index)
            case .closed: continuation.resume(throwing: StorageError(.closed, "PostgreSQL store is closed"))
            case .wait: break
            }
        }
        return slots[index]
    }

    private func release(_ slot: PostgresSlot) {
        let waiter = state.withLock { (state) -> CheckedContinuation<Int, any Error>? in
            if !state.waiters.isEmpty { return state.waiters.removeFirst() }
            state.free.append(slot.index)
            return nil
        }
        waiter?.resume(returning: slot.index)
    }

    /// Refuses new work (waiting transactions get `.closed`), waits for the leased slots to come back, then
    /// closes every connection.
    func close() async {
        let waiters = state.withLock { (state) -> [CheckedContinuation<Int, any Error>] in
            state.isClosed = true
            defer { state.waiters.removeAll() }
            return state.waiters
        }
        for waiter in waiters { waiter.resume(throwing: StorageError(.closed, "PostgreSQL store is closed")) }
        while state.withLock({ $0.free.count }) < slots.count {
            try? await Task.sleep(for: .milliseconds(2))
        }
        for slot in slots { await slot.close() }
    }
}
