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

    /// `write(admission:_:)` for a body that is one writer operation and returns its result
    /// (`{ try $0.completeLogin(login) }`): the transaction ends with that operation, so a driver may send COMMIT
    /// together with the operation's statement (PostgreSQL: one round trip for the write instead of two). The same
    /// all or nothing and the same durability as `write`; what differs is what a connection lost at the wrong moment
    /// leaves: a driver that finds the transaction committed but never received the operation's result reads it
    /// back with `recover` (`LoginCompletion.recordedOutcome`), and throws `.io` (outcome unknown) where `recover` is
    /// nil or answers nil. `admission` nil: the write is admitted at once.
    /// - Throws: what `admission` throws, `StorageError`, or what `body` throws.
    func writeOperation<T: Sendable>(
        admission: WriteAdmission?, recover: (@Sendable (any StoreReader) throws -> T?)?,
        _ body: @escaping @Sendable (any StoreWriter) throws -> T
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

    /// `write(admission:_:)`, or `write(_:)` without an admission: right for a driver that commits an operation
    /// as any other body, whose result is never lost after a commit (`recover` is never needed).
    public func writeOperation<T: Sendable>(
        admission: WriteAdmission?, recover: (@Sendable (any StoreReader) throws -> T?)?,
        _ body: @escaping @Sendable (any StoreWriter) throws -> T
    ) async throws -> T {
        guard let admission else { return try await write(body) }
        return try await write(admission: admission, body)
    }

    /// `writeOperation(admission:recover:_:)` with no admission of its own (the server's store asks the request's).
    public func writeOperation<T: Sendable>(
        recover: (@Sendable (any StoreReader) throws -> T?)? = nil,
        _ body: @escaping @Sendable (any StoreWriter) throws -> T
    ) async throws -> T {
        try await writeOperation(admission: nil, recover: recover, body)
    }
}
