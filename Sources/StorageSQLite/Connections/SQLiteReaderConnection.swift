import Storage

/// One read-only connection of `SQLiteReaderPool`. Reads run in a deferred transaction: one snapshot of the WAL for
/// the whole body.
///
/// It has no thread of its own: the pool hands it to one caller at a time, whose thread runs the read.
final class SQLiteReaderConnection: @unchecked Sendable {  // used by one thread at a time: the pool's checkout
    private var database: SQLiteDatabase?
    /// The page cache's pragma, run before the first read: it loads the schema, which takes the database file's
    /// SHARED lock and so may meet SQLITE_BUSY, like any read (`SQLiteReaderPool` handles that).
    private var pendingPragmas: String?

    /// Opens the database read-only (the writer has already created it and set WAL mode). Nothing is read yet, so
    /// this takes no lock and never waits.
    /// - Parameter busyTimeoutMilliseconds: how long a read waits for a lock (the pool's fast path: 0).
    init(_ configuration: SQLiteConfiguration, busyTimeoutMilliseconds: Int32) throws(StorageError) {
        let database = try SQLiteDatabase(
            path: configuration.path, readOnly: true, busyTimeoutMilliseconds: busyTimeoutMilliseconds)
        pendingPragmas = SQLiteDatabase.cachePragmas(configuration)
        self.database = database
    }

    /// Runs `body` in one read transaction (BEGIN DEFERRED … COMMIT; ROLLBACK when it throws).
    func read<T: Sendable>(_ body: (any StoreReader) throws -> T) throws -> T {
        guard let database else { throw StorageError(.closed, "SQLite store is closed") }
        if let pragmas = pendingPragmas {
            try database.executeScript(pragmas)
            pendingPragmas = nil
        }
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

    /// Whether the last reads met SQLITE_BUSY (even if the body swallowed it); clears the mark.
    func takeMetBusy() -> Bool {
        database?.takeMetBusy() ?? false
    }

    /// Sets how long a read waits for a lock before SQLITE_BUSY.
    func setBusyTimeout(milliseconds: Int32) {
        database?.setBusyTimeout(milliseconds: milliseconds)
    }

    /// Closes the connection (finalizing its statements).
    func close() {
        database = nil
    }
}
