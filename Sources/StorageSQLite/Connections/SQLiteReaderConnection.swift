import Storage

/// One read-only connection, serialized on its own queue. Reads run in a deferred transaction: one snapshot of
/// the WAL for the whole body.
actor SQLiteReaderConnection {
    private let executor: QueueExecutor
    private var database: SQLiteDatabase?

    nonisolated var unownedExecutor: UnownedSerialExecutor { executor.asUnownedSerialExecutor() }

    init(label: String) {
        executor = QueueExecutor(label: label)
    }

    /// Opens the database read-only (the writer has already created it and set WAL mode).
    func open(_ configuration: SQLiteConfiguration) throws(StorageError) {
        let database = try SQLiteDatabase(
            path: configuration.path, readOnly: true,
            busyTimeoutMilliseconds: Int32(configuration.busyTimeoutMilliseconds))
        try database.executeScript(SQLiteDatabase.cachePragmas(configuration))
        self.database = database
    }

    /// Runs `body` in one read transaction.
    func read<T: Sendable>(_ body: @Sendable (any StoreReader) throws -> T) throws -> T {
        guard let database else { throw StorageError(.closed, "SQLite store is closed") }
        try database.execute("BEGIN DEFERRED")
        let transaction = SQLiteTransaction(database: database)
        do {
            let result = try body(transaction)
            try database.execute("COMMIT")
            return result
        } catch {
            if !database.isAutocommit {
                _ = try? database.execute("ROLLBACK")  // read-only: nothing to lose; the body's error wins
            }
            throw error
        }
    }

    /// Closes the connection (finalizing its statements).
    func close() {
        database = nil
    }
}
