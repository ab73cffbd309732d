import Foundation
import Storage

/// The embedded SQLite `Store`: one writer connection with group commit, on its own serial queue, and a pool of
/// reader connections used on the caller's thread (`SQLiteReaderPool`: a WAL reader never waits for the writer).
///
/// The database runs in WAL mode with `foreign_keys=ON` and `synchronous=FULL` by default, so `write` returns only
/// once its transaction is fsynced. Concurrent writes share commits (see `SQLiteWriterConnection`), which keeps
/// throughput at thousands of transactions per second despite one fsync per commit.
public final class SQLiteStore: Store {
    private let writer: SQLiteWriterConnection
    private let readers: SQLiteReaderPool
    private let checkpointer: SQLiteCheckpointer

    private init(writer: SQLiteWriterConnection, readers: SQLiteReaderPool, checkpointer: SQLiteCheckpointer) {
        self.writer = writer
        self.readers = readers
        self.checkpointer = checkpointer
    }

    /// Opens the store: creates the directory (0700) and file (0600) if missing, applies pending migrations.
    /// - Parameters:
    ///   - configuration: where and how to open.
    ///   - migrations: the schema to migrate to; `SQLiteSchema.migrations` except in tests of migration itself.
    /// - Throws: `.invalidConfiguration`, `.io`, `.corrupt` (the file is not a database, or `PRAGMA quick_check`
    ///   finds it damaged), or `.migration` (e.g. the database is newer than this binary).
    public static func open(
        _ configuration: SQLiteConfiguration, migrations: [Migration] = SQLiteSchema.migrations
    ) async throws(StorageError) -> SQLiteStore {
        try configuration.validate()
        let writer = SQLiteWriterConnection(label: "passkeyd.sqlite.writer", maxBatchSize: configuration.maxBatchSize)
        try await writer.open(configuration, migrations: migrations)
        let checkpointer: SQLiteCheckpointer
        do {
            checkpointer = try SQLiteCheckpointer(configuration, label: "passkeyd.sqlite.checkpointer")
        } catch {
            await writer.close()
            throw error
        }
        await writer.attach(checkpointer)
        let readers: SQLiteReaderPool
        do {
            readers = try SQLiteReaderPool(configuration, label: "passkeyd.sqlite.reader.busy")
        } catch {
            await writer.close()
            await checkpointer.close()
            throw error
        }
        return SQLiteStore(writer: writer, readers: readers, checkpointer: checkpointer)
    }

    /// Runs `body` in a read transaction on one of the reader connections, on the calling thread (see
    /// `SQLiteReaderPool`). A damaged page met here stops every later write (see `damage`).
    public func read<T: Sendable>(_ body: @escaping @Sendable (any StoreReader) throws -> T) async throws -> T {
        do {
            return try await readers.read(body)
        } catch let error as StorageError where error.code == .corrupt {
            writer.markDamaged(error)
            throw error
        }
    }

    /// Queues `body` for the writer; returns after the group commit that includes it is durable. Once a damaged
    /// page was met (SQLITE_CORRUPT or SQLITE_NOTADB from any statement of any connection), every write is refused
    /// with `.corrupt` and nothing more is written to the file.
    public func write<T: Sendable>(_ body: @escaping @Sendable (any StoreWriter) throws -> T) async throws -> T {
        try await submit { try body($0) }
    }

    /// `write`, with `admission` asked on the writer, inside the body's savepoint just before the body runs: the
    /// time queued behind other batches counts against a request's deadline, and a refusal writes nothing.
    public func write<T: Sendable>(
        admission: WriteAdmission, _ body: @escaping @Sendable (any StoreWriter) throws -> T
    ) async throws -> T {
        try await submit {
            try admission.admit()
            return try body($0)
        }
    }

    private func submit<T: Sendable>(_ body: @escaping @Sendable (SQLiteTransaction) throws -> T) async throws -> T {
        let value = try await withCheckedThrowingContinuation { continuation in
            writer.submit(SQLiteWriterConnection.Job(body: { try body($0) }, continuation: continuation))
        }
        guard let typed = value as? T else {
            throw StorageError(.internalFailure, "write result is \(type(of: value)), expected \(T.self)")
        }
        return typed
    }

    /// The damage met in service, if any: then the file must be restored from a backup.
    public var damage: StorageError? { writer.damage }

    /// Refuses new work, lets admitted reads finish and queued writes commit, then closes every connection.
    public func close() async {
        await readers.close()
        await writer.close()
        // Last: waits for a running checkpoint; as the last connection it copies what is left and removes the WAL.
        await checkpointer.close()
    }

    /// How the WAL's frames have been copied into the database file since the store opened.
    public var checkpointStatistics: SQLiteCheckpointStatistics { checkpointer.statistics }

    // MARK: test seams

    /// The reader pool's counts (waits for a connection, reads run again after SQLITE_BUSY).
    var readerStatistics: SQLiteReaderPool.Statistics { readers.statistics }

    /// Sets the writer's `PRAGMA max_page_count` (`nil`: SQLite's maximum): once the database file may grow no
    /// further, writes meet SQLITE_FULL as on a full disk; raising it is the space freed.
    package func setMaxPageCountForTesting(_ pages: Int?) async throws {
        try await writer.setMaxPageCountForTesting(pages)
    }

    /// Makes the writer's checkpoint after a full disk fail as on a disk that stays full (`true`), or run (`false`).
    package func setDiskStaysFullForTesting(_ full: Bool) async {
        await writer.setDiskStaysFullForTesting(full)
    }

    /// Makes the writer see `bytes` free on the database's volume (`nil`: the volume's own figure).
    package func setAvailableBytesForTesting(_ bytes: Int?) async {
        await writer.setAvailableBytesForTesting(bytes)
    }
}
