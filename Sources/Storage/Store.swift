/// A transactional store of passkeyd's state, implemented by every driver (memory, SQLite, PostgreSQL).
///
/// Transactions are closures: the body runs inside one transaction, all or nothing. If the body throws,
/// nothing it wrote is kept and its error is rethrown as is. The reader/writer handed to the body is valid only
/// during the call: do not let it escape.
///
/// ```swift
/// let session = try await store.write { try $0.consumeAuthSession(id: key, now: now) }
/// ```
public protocol Store: Sendable {
    /// Runs `body` in a read-only transaction that sees one consistent snapshot.
    /// - Throws: `StorageError`, or what `body` throws.
    func read<T: Sendable>(_ body: @escaping @Sendable (any StoreReader) throws -> T) async throws -> T

    /// Runs `body` in a read-write transaction; returns once the transaction is durable (committed).
    /// - Throws: `StorageError`, or what `body` throws (then nothing `body` wrote is kept).
    func write<T: Sendable>(_ body: @escaping @Sendable (any StoreWriter) throws -> T) async throws -> T

    /// `write`, asking `admission` once the write has its connection or its turn, just before its transaction
    /// begins: if `admission` throws, nothing runs and the write throws that error. A driver whose writes queue
    /// (a pool, a writer thread) asks it after the queue, so that the wait still counts against a request's
    /// deadline; the default asks it first, for stores that do not queue.
    /// - Throws: what `admission` throws, `StorageError`, or what `body` throws.
    func write<T: Sendable>(
        admission: WriteAdmission, _ body: @escaping @Sendable (any StoreWriter) throws -> T
    ) async throws -> T

    /// Closes the store: waits for work in flight, then releases connections. Later calls throw `.closed`.
    func close() async
}

extension Store {
    /// Admits at once, then writes: right for a store whose writes do not queue (the memory store, test doubles).
    public func write<T: Sendable>(
        admission: WriteAdmission, _ body: @escaping @Sendable (any StoreWriter) throws -> T
    ) async throws -> T {
        try admission.admit()
        return try await write(body)
    }
}
