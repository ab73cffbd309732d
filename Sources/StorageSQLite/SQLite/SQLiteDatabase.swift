import Storage
import Foundation
internal import CSQLite

/// The one owner of a `sqlite3*` connection handle and its cached prepared statements.
///
/// Used by one thread at a time: the writer actor's executor, the checkpointer's queue, or whichever thread checked a
/// reader connection out of `SQLiteReaderPool`. It is never used from two threads at once (opened with
/// SQLITE_OPEN_NOMUTEX for that reason).
final class SQLiteDatabase {
    private let handle: OpaquePointer
    private var statements: [String: SQLiteStatement] = [:]
    /// Whether a call met SQLITE_BUSY since `takeMetBusy()` last cleared it (set by the error funnel, so a body that
    /// swallowed the error is seen too).
    private var metBusy = false

    /// Opens (or, with `create`, creates) the database at `path`.
    init(path: String, readOnly: Bool, busyTimeoutMilliseconds: Int32) throws(StorageError) {
        var opened: OpaquePointer?
        let flags =
            (readOnly ? SQLITE_OPEN_READONLY : SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE) | SQLITE_OPEN_NOMUTEX
        let rc = sqlite3_open_v2(path, &opened, flags, nil)
        guard let opened else { throw StorageError(.io, "sqlite3_open_v2(\(path)) returned no handle (\(rc))") }
        guard rc == SQLITE_OK else {
            let error = SQLiteDatabase.error(rc, handle: opened, context: "open \(path)")
            sqlite3_close_v2(opened)
            throw error
        }
        handle = opened
        sqlite3_extended_result_codes(handle, 1)
        sqlite3_busy_timeout(handle, busyTimeoutMilliseconds)
    }

    deinit {
        // Statements first: sqlite3_close_v2 would otherwise keep a zombie connection until they are finalized.
        statements.removeAll()
        sqlite3_close_v2(handle)
    }

    /// Whether no transaction is open (SQLite rolls a transaction back by itself after some errors).
    var isAutocommit: Bool { sqlite3_get_autocommit(handle) != 0 }

    /// Sets how long a call waits for a lock held by another connection before SQLITE_BUSY (0: it does not wait).
    func setBusyTimeout(milliseconds: Int32) {
        sqlite3_busy_timeout(handle, milliseconds)
    }

    /// Whether a call met SQLITE_BUSY since the last call of this; clears the mark.
    func takeMetBusy() -> Bool {
        defer { metBusy = false }
        return metBusy
    }

    /// Rows changed by the last INSERT/UPDATE/DELETE.
    var changes: Int { Int(sqlite3_changes(handle)) }

    /// The cached prepared statement for `sql`, reset and with cleared bindings.
    func statement(_ sql: String) throws(StorageError) -> SQLiteStatement {
        if let cached = statements[sql] {
            cached.reset()
            return cached
        }
        var prepared: OpaquePointer?
        let rc = sqlite3_prepare_v3(handle, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &prepared, nil)
        guard rc == SQLITE_OK, let prepared else { throw error(rc, context: "prepare \(sql)") }
        let statement = SQLiteStatement(handle: prepared, database: self)
        statements[sql] = statement
        return statement
    }

    /// Runs `sql` (one statement, no rows expected) with `arguments`; returns the number of changed rows.
    @discardableResult
    func execute(_ sql: String, _ arguments: [SQLiteValue] = []) throws(StorageError) -> Int {
        let statement = try statement(sql)
        try statement.bind(arguments)
        while try statement.step() {}
        return changes
    }

    /// Runs `sql` with `arguments` and decodes every row with `decode`.
    func query<T>(
        _ sql: String, _ arguments: [SQLiteValue] = [], _ decode: (SQLiteStatement) throws(StorageError) -> T
    ) throws(StorageError) -> [T] {
        let statement = try statement(sql)
        try statement.bind(arguments)
        var rows: [T] = []
        while try statement.step() {
            rows.append(try decode(statement))
        }
        return rows
    }

    /// The user tables of the database, by name (SQLite's own `sqlite_…` tables left out).
    func tableNames() throws(StorageError) -> [String] {
        try query(
            "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\' ORDER BY name"
        ) { (row) throws(StorageError) in try row.text(0) }
    }

    /// The highest version recorded in `schema_migrations`; nil when the database has no such table (it is not a
    /// passkeyd database, or an empty file).
    func schemaVersion() throws(StorageError) -> Int? {
        guard try tableNames().contains("schema_migrations") else { return nil }
        return Int(
            try query("SELECT coalesce(max(version), 0) FROM schema_migrations") {
                (row) throws(StorageError) in try row.integer(0)
            }.first ?? 0)
    }

    /// Runs several `;`-separated statements without arguments or caching (migrations, pragmas).
    func executeScript(_ sql: String) throws(StorageError) {
        let rc = sqlite3_exec(handle, sql, nil, nil, nil)
        guard rc == SQLITE_OK else { throw error(rc, context: "exec") }
    }

    /// Each connection's page cache (`PRAGMA cache_size`, negative: KiB). SQLite's default is 2 MiB: once the
    /// refresh tokens outgrow it, every insert at a random key (they are keyed by hashes) reads its leaf page
    /// back with a pread(2). (No mmap: an I/O error on a mapped page is a SIGBUS, not an error code.)
    static func cachePragmas(_ configuration: SQLiteConfiguration) -> String {
        "PRAGMA cache_size = -\(configuration.cacheKibibytes)"
    }

    /// The writer's savepoint journal in memory (`PRAGMA temp_store = MEMORY`). Each write body runs in a SAVEPOINT
    /// (`SQLiteWriterConnection`), and SQLite keeps the first version of every page a body changes in a
    /// sub-journal to roll the body back alone; past 64 KiB (a few bodies of a batch) that sub-journal went to a
    /// temporary file created, written with pwrite(2) and deleted in every batch. It is never read after a crash
    /// (a transaction that did not commit is simply not in the WAL), so keeping it in memory changes nothing of
    /// durability; its size is the old copies of the pages a batch's bodies change (a few MiB for 64 logins; a
    /// body rewriting a whole table, which the server never runs, would hold that table's pages).
    static let writerPragmas = "PRAGMA temp_store = MEMORY"

    // MARK: WAL checkpoints

    /// Frames in the WAL after the last commit, as SQLite's WAL hook reports them; only kept once
    /// `takeOverCheckpoints()` has run.
    private let walFrames = WALFrameCount()

    /// Replaces SQLite's automatic checkpoint (run inside COMMIT, so the committing callers would wait for it) by
    /// a frame count that `checkpointIfDue` reads. The caller must then call `checkpointIfDue` itself.
    func takeOverCheckpoints() {
        // sqlite3_wal_hook replaces the hook sqlite3_wal_autocheckpoint installs: no checkpoint runs on commit now.
        sqlite3_wal_hook(
            handle,
            { context, _, _, frames in
                if let context {
                    Unmanaged<WALFrameCount>.fromOpaque(context).takeUnretainedValue().value = Int(frames)
                }
                return SQLITE_OK
            }, Unmanaged.passUnretained(walFrames).toOpaque())
    }

    /// Frames in the WAL after this connection's last commit (0 until it commits, and after `checkpointIfDue`).
    var walFrameCount: Int { walFrames.value }

    /// A PASSIVE checkpoint (copies committed WAL frames into the database without waiting for readers or
    /// blocking them) once the WAL holds at least `frames` frames; the next write transaction then restarts
    /// the WAL from its beginning if every frame was copied.
    /// - Returns: whether a checkpoint ran.
    @discardableResult
    func checkpointIfDue(frames: Int) throws(StorageError) -> Bool {
        guard walFrames.value >= frames else { return false }
        walFrames.value = 0
        try checkpointPassive()
        return true
    }

    /// A PASSIVE checkpoint now, on this connection (any connection may run one; SQLite runs one at a time).
    /// - Throws: `.busy` when another connection is checkpointing.
    func checkpointPassive() throws(StorageError) {
        let rc = sqlite3_wal_checkpoint_v2(handle, nil, SQLITE_CHECKPOINT_PASSIVE, nil, nil)
        guard rc == SQLITE_OK else { throw error(rc, context: "wal_checkpoint(PASSIVE)") }
    }

    /// A TRUNCATE checkpoint: copies every WAL frame into the database file, waits (up to the busy timeout) for
    /// readers still on the WAL, then truncates the WAL to zero bytes, giving its space back to the file system.
    /// - Throws: `.busy` when another connection is checkpointing or a reader stays on the WAL; `.unavailable`
    ///   (disk full) when the database file cannot grow by the pages the WAL holds; nothing is lost either way.
    func checkpointTruncating() throws(StorageError) {
        let rc = sqlite3_wal_checkpoint_v2(handle, nil, SQLITE_CHECKPOINT_TRUNCATE, nil, nil)
        guard rc == SQLITE_OK else { throw error(rc, context: "wal_checkpoint(TRUNCATE)") }
        walFrames.value = 0
    }

    /// The funnel turning a SQLite result code into a `StorageError`, read right after the failing call.
    func error(_ rc: Int32, context: String) -> StorageError {
        if rc & 0xFF == SQLITE_BUSY { metBusy = true }
        return SQLiteDatabase.error(rc, handle: handle, context: context)
    }

    private static func error(_ rc: Int32, handle: OpaquePointer, context: String) -> StorageError {
        let message = sqlite3_errmsg(handle).map { String(cString: $0) } ?? "no message"
        let reason = "\(context): \(message) (\(rc))"
        switch rc & 0xFF {
        case SQLITE_BUSY, SQLITE_LOCKED:
            return StorageError(.busy, reason)
        case SQLITE_CORRUPT, SQLITE_NOTADB:
            return StorageError(.corrupt, reason)
        case SQLITE_FULL:
            // A write(2) of the WAL or of the database file returned ENOSPC (or the file reached
            // `max_page_count`). In WAL mode a transaction commits only with its commit frame, written last and valid
            // only if written whole: a COMMIT that met a full disk did not commit, nothing of it was written.
            return .unavailable(.diskFull, "\(reason): the disk is full")
        case SQLITE_READONLY:
            // Every SQLITE_READONLY_* is a refusal before anything is written (a read-only file or directory, a
            // database file moved or replaced under the connection, a hot journal it may not roll back).
            return .unavailable(.readOnly, "\(reason): the database file is read-only")
        case SQLITE_IOERR where sqlite3_system_errno(handle) == ENOSPC:
            // ENOSPC behind an I/O error (growing the -shm file after the WAL frames were written and synced, …): the
            // write may have taken effect, so it stays `.io`; the reason says the disk is full.
            return StorageError(.io, "\(reason): the disk is full (ENOSPC), outcome unknown")
        case SQLITE_IOERR, SQLITE_CANTOPEN, SQLITE_PERM, SQLITE_PROTOCOL, SQLITE_AUTH:
            return StorageError(.io, reason)
        case SQLITE_CONSTRAINT:
            return StorageError(.conflict, reason, constraint: SQLiteConstraintNames.constraint(forMessage: message))
        default:
            return StorageError(.internalFailure, reason)
        }
    }
}

/// The WAL hook's frame count, a class so the C callback can reach it through a context pointer (the database
/// handle is confined to one thread, so no lock is needed).
private final class WALFrameCount {
    var value = 0
}
