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

    /// Closes the store: waits for work in flight, then releases connections. Later calls throw `.closed`.
    func close() async
}
