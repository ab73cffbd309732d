import Synchronization

/// The reference `Store`: all state in one Mutex-guarded value.
///
/// A write runs its body on a private copy of the state while holding the lock (so writes are serialized) and
/// publishes the copy only if the body returns: a throw leaves the published state untouched. A read runs on a
/// snapshot taken under the lock, outside it. Nothing is durable: the state dies with the store.
public final class MemoryStore: Store {
    private struct Guarded: Sendable {
        var state = MemoryState()
        var isClosed = false
    }

    private let guarded = Mutex(Guarded())

    /// Creates an empty store.
    public init() {}

    /// Runs `body` on a snapshot of the state.
    public func read<T: Sendable>(_ body: @escaping @Sendable (any StoreReader) throws -> T) async throws -> T {
        let snapshot = try guarded.withLock { (guarded) throws(StorageError) -> MemoryState in
            guard !guarded.isClosed else { throw StorageError(.closed, "memory store is closed") }
            return guarded.state
        }
        return try body(MemoryTransaction(state: snapshot))
    }

    /// Runs `body` on a copy of the state and publishes the copy if `body` returns.
    public func write<T: Sendable>(_ body: @escaping @Sendable (any StoreWriter) throws -> T) async throws -> T {
        try guarded.withLock { guarded in
            guard !guarded.isClosed else { throw StorageError(.closed, "memory store is closed") }
            let transaction = MemoryTransaction(state: guarded.state)
            let result = try body(transaction)
            guarded.state = transaction.state
            return result
        }
    }

    /// Marks the store closed and drops its state.
    public func close() async {
        guarded.withLock { guarded in
            guarded.isClosed = true
            guarded.state = MemoryState()
        }
    }
}
