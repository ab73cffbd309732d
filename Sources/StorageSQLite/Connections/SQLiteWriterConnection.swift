import Foundation
import Storage
import Synchronization

/// The one read-write connection, serialized on its own queue, committing queued write bodies in groups.
///
/// Group commit: callers' bodies queue up (`submit`, lock-protected, no actor hop) while a batch runs. The drain
/// loop takes up to `maxBatchSize` queued bodies and runs them one after another inside one
/// `BEGIN IMMEDIATE … COMMIT`, each inside its own SAVEPOINT, so a body that throws is rolled back alone and gets
/// its error. The batch commits once (one fsync with `synchronous=FULL`), and only then is each caller resumed:
/// no caller sees success before its writes are durable.
actor SQLiteWriterConnection {
    /// One caller's write: its body and the continuation its `write` call waits on.
    struct Job: Sendable {
        let body: @Sendable (SQLiteTransaction) throws -> any Sendable
        let continuation: CheckedContinuation<any Sendable, any Error>
    }

    private struct Pending: Sendable {
        var jobs: [Job] = []
        var isDraining = false
        var isClosed = false
        var closeWaiters: [CheckedContinuation<Void, Never>] = []
        /// Set once any connection meets a damaged page (SQLITE_CORRUPT / SQLITE_NOTADB): no write runs after it.
        var damage: StorageError?
    }

    private let executor: QueueExecutor
    private let pending = Mutex(Pending())
    private let maxBatchSize: Int
    private var database: SQLiteDatabase?
    /// Copies the WAL into the database file in the background; attached by `SQLiteStore.open` before any write.
    private var checkpointer: SQLiteCheckpointer?
    /// The database's directory, whose volume's free space `checkpointAfterBatch` watches.
    private var directory = ""
    /// The bytes one WAL frame takes: a page and its 24-byte header.
    private var walFrameBytes = 4_096 + 24
    /// The full disk a write met (SQLITE_FULL), until a checkpoint after it succeeds (`recoverFromFullDisk`).
    private var fullDisk: StorageError?
    /// Test seam: the checkpoint after a full disk fails as on a disk that stays full.
    private var diskStaysFullForTesting = false
    /// Test seam: the free bytes `isSpaceShort` sees instead of the volume's.
    private var availableBytesForTesting: Int?
    /// The WAL size, in frames (pages), past which a batch is followed by a passive checkpoint: SQLite's
    /// automatic checkpoint threshold.
    static let checkpointFrames = 1000
    /// The WAL size past which the writer copies itself even with a background checkpointer: it is not keeping up.
    static let fallbackCheckpointFrames = 4 * checkpointFrames

    nonisolated var unownedExecutor: UnownedSerialExecutor { executor.asUnownedSerialExecutor() }

    init(label: String, maxBatchSize: Int) {
        executor = QueueExecutor(label: label)
        self.maxBatchSize = max(1, maxBatchSize)
    }

    /// Creates the file if needed, opens it, sets the journal and durability pragmas, applies pending migrations.
    func open(_ configuration: SQLiteConfiguration, migrations: [Migration]) throws(StorageError) {
        try DatabaseFile.prepare(configuration)
        let database = try SQLiteDatabase(
            path: configuration.path, readOnly: false,
            busyTimeoutMilliseconds: Int32(configuration.busyTimeoutMilliseconds))
        let mode = try database.query("PRAGMA journal_mode = WAL") { (row) throws(StorageError) in try row.text(0) }
        guard mode.first?.lowercased() == "wal" else {
            throw StorageError(.io, "cannot switch \(configuration.path) to WAL (journal mode \(mode))")
        }
        // synchronous=FULL in WAL mode: every commit fsyncs the WAL (see SQLiteConfiguration.Synchronous).
        try database.executeScript(
            "PRAGMA synchronous = \(configuration.synchronous.pragmaValue); PRAGMA foreign_keys = ON; "
                + SQLiteDatabase.cachePragmas(configuration) + "; " + SQLiteDatabase.writerPragmas)
        try Self.checkIntegrity(database, path: configuration.path)
        try SQLiteMigrator.migrate(database, migrations: migrations)
        database.takeOverCheckpoints()
        directory = configuration.directory
        let pageSizes = try database.query("PRAGMA page_size") { (row) throws(StorageError) in try row.integer(0) }
        walFrameBytes = Int(pageSizes.first ?? 4_096) + 24
        // A WAL left behind (a crash, or a close whose checkpoint met a full disk) goes into the database file first,
        // so that the space it holds is free before anything writes. On a disk still full this fails; then the first
        // write tries again before it writes (`recoverFromFullDisk`).
        do {
            try database.checkpointTruncating()
        } catch  where error.unavailability == .diskFull {
            fullDisk = error
        } catch {
            // Busy (another process checkpointing), a read-only file: the background checkpoints copy it later, and
            // a write meets what stops it.
        }
        self.database = database
    }

    /// `PRAGMA quick_check`: every page of the file is read and its b-tree structure checked (not the indexes'
    /// agreement with their tables, which `integrity_check` adds at ten times the cost). It reads the whole file
    /// once: measured here at 1.3–1.4 s for a 188 MB database of a million refresh tokens (file in the OS cache,
    /// 2 shared cores; `integrity_check` took 16 s), so about 7 ms per MB plus the disk's read time when cold, at
    /// each start. The pages it reads warm the writer's cache. A damaged file is refused before anything writes
    /// to it.
    /// - Throws: `.corrupt` naming the file and SQLite's first complaint.
    static func checkIntegrity(_ database: SQLiteDatabase, path: String) throws(StorageError) {
        let findings: [String]
        do {
            findings = try database.query("PRAGMA quick_check") { (row) throws(StorageError) in try row.text(0) }
        } catch  where error.code == .corrupt {
            // Damage bad enough that the check itself stops on it.
            throw StorageError(.corrupt, "PRAGMA quick_check on \(path): \(error.reason)")
        }
        guard findings != ["ok"] else { return }
        // One row may hold several lines ("*** in database main ***", then a line per page): the first complaint is
        // the first line that is not such a header, so that the error stays one line.
        let complaints = findings.flatMap { $0.split(separator: "\n") }.filter { !$0.hasPrefix("***") }
        throw StorageError(.corrupt, "PRAGMA quick_check on \(path): \(complaints.first ?? "no answer")")
    }

    /// Records that a connection met a damaged page: from now on every write is refused with `.corrupt` before it
    /// touches the file. The first damage found is kept.
    nonisolated func markDamaged(_ error: StorageError) {
        pending.withLock { pending in
            if pending.damage == nil { pending.damage = error }
        }
    }

    /// The damage found so far, if any.
    nonisolated var damage: StorageError? { pending.withLock { $0.damage } }

    /// The error a write gets once the database is known to be damaged.
    private static func refusal(_ damage: StorageError) -> StorageError {
        StorageError(.corrupt, "write refused: the database was found damaged (\(damage.reason))")
    }

    /// Hands the WAL checkpoints' bulk to `checkpointer` (see `SQLiteCheckpointer`).
    func attach(_ checkpointer: SQLiteCheckpointer) {
        self.checkpointer = checkpointer
    }

    /// Queues `job`; starts a drain unless one is running. A closed connection fails the job with `.closed`.
    nonisolated func submit(_ job: Job) {
        enum Decision { case refuse, refuseDamaged(StorageError), queued, startDrain }
        let decision = pending.withLock { pending -> Decision in
            guard !pending.isClosed else { return .refuse }
            if let damage = pending.damage { return .refuseDamaged(damage) }
            pending.jobs.append(job)
            guard !pending.isDraining else { return .queued }
            pending.isDraining = true
            return .startDrain
        }
        switch decision {
        case .refuse: job.continuation.resume(throwing: StorageError(.closed, "SQLite store is closed"))
        case .refuseDamaged(let damage): job.continuation.resume(throwing: Self.refusal(damage))
        case .queued: break
        case .startDrain: Task { await self.drain() }
        }
    }

    /// Runs batches until the queue is empty, then wakes anyone waiting in `close`.
    private func drain() {
        while true {
            let batch = pending.withLock { pending -> [Job] in
                let count = min(pending.jobs.count, maxBatchSize)
                let batch = Array(pending.jobs.prefix(count))
                pending.jobs.removeFirst(count)
                return batch
            }
            if batch.isEmpty {
                let waiters = pending.withLock { pending -> [CheckedContinuation<Void, Never>]? in
                    // Re-check under the lock: a job may have arrived since the batch was taken.
                    guard pending.jobs.isEmpty else { return nil }
                    pending.isDraining = false
                    defer { pending.closeWaiters = [] }
                    return pending.closeWaiters
                }
                guard let waiters else { continue }
                waiters.forEach { $0.resume() }
                return
            }
            run(batch)
        }
    }

    /// Runs one batch in one transaction and resumes every caller once the outcome is known.
    private func run(_ batch: [Job]) {
        guard let database else {
            batch.forEach { $0.continuation.resume(throwing: StorageError(.closed, "SQLite store is closed")) }
            return
        }
        var succeeded: [(Job, any Sendable)] = []
        var failed: [(Job, any Error)] = []
        var remaining = batch[...]
        while !remaining.isEmpty {
            if let damage = self.damage {
                // A damaged page was met (here or by a reader): nothing more is written to the file.
                remaining.forEach { failed.append(($0, Self.refusal(damage))) }
                break
            }
            if let refusal = recoverFromFullDisk(database) {
                // The disk is still full: nothing is written, so the WAL does not take the space freed meanwhile.
                remaining.forEach { failed.append(($0, refusal)) }
                break
            }
            do {
                try database.execute("BEGIN IMMEDIATE")
            } catch {
                note(error)
                remaining.forEach { failed.append(($0, error)) }
                break
            }
            var batchAborted = false
            var lastFailure: (any Error)?
            while let job = remaining.popFirst() {
                switch runInSavepoint(job, database) {
                case .success(let value):
                    succeeded.append((job, value))
                case .failure(let error):
                    failed.append((job, error))
                    lastFailure = error
                    note(error)
                }
                if let damage = self.damage {
                    // Never commit over a damaged page: undo the whole transaction, fail the batch's bodies.
                    if !database.isAutocommit { _ = try? database.execute("ROLLBACK") }
                    failed += succeeded.map { ($0.0, Self.refusal(damage)) }
                    succeeded = []
                    batchAborted = true
                    break
                }
                if database.isAutocommit {
                    // SQLite rolled the whole transaction back by itself (disk full, I/O error): the bodies run
                    // before in this batch are lost too. Fail them, and go on with a new transaction. Rolled back by
                    // a full disk, nothing of theirs was written: the same 503 as the body that met it.
                    let lost =
                        if let cause = lastFailure as? StorageError, cause.code == .unavailable {
                            StorageError(
                                .unavailable, "transaction rolled back by SQLite after: \(cause.reason)",
                                unavailability: cause.unavailability)
                        } else {
                            StorageError(.io, "transaction rolled back by SQLite after a failure in the same batch")
                        }
                    failed += succeeded.map { ($0.0, lost) }
                    succeeded = []
                    batchAborted = true
                    break
                }
            }
            if batchAborted { continue }
            do {
                // A COMMIT that fails with SQLITE_FULL wrote no commit frame: `.unavailable`, nothing written.
                try database.execute("COMMIT")
            } catch {
                note(error)
                if !database.isAutocommit { _ = try? database.execute("ROLLBACK") }  // the COMMIT error is reported
                failed += succeeded.map { ($0.0, error) }
                succeeded = []
            }
        }
        // Durable (or definitely failed) now: only at this point does any caller return.
        for (job, value) in succeeded { job.continuation.resume(returning: value) }
        for (job, error) in failed { job.continuation.resume(throwing: error) }
        // After the callers are on their way: a checkpoint run inside COMMIT would make them wait for it.
        checkpointAfterBatch(database)
    }

    /// Keeps the WAL near `checkpointFrames`: start the background checkpointer at the threshold; once it has
    /// finished, copy here the frames committed during its run (a few dozen) so the next write transaction restarts
    /// the WAL from its beginning; copy everything here only past `fallbackCheckpointFrames` (the background not
    /// keeping up). A failed checkpoint loses nothing (the frames
    /// stay in the WAL) and a later batch tries again; an I/O failure behind it surfaces in the next write.
    /// On a volume with less free space than the WAL would take to reach the threshold (a small volume, a nearly full
    /// disk), the background checkpoint starts after every batch: the WAL keeps restarting instead of filling the
    /// disk with old versions of pages, and the database file grows only by the pages it needs.
    private func checkpointAfterBatch(_ database: SQLiteDatabase) {
        guard let checkpointer, damage == nil else { return }
        if checkpointer.takeFinished() {
            if (try? database.checkpointIfDue(frames: 0)) == true { checkpointer.record { $0.writerTail += 1 } }
        } else if database.walFrameCount >= Self.fallbackCheckpointFrames, !checkpointer.isRunning {
            if (try? database.checkpointIfDue(frames: 0)) == true { checkpointer.record { $0.writerFallback += 1 } }
        } else if database.walFrameCount >= Self.checkpointFrames || isSpaceShort(database) {
            checkpointer.start()
        }
    }

    /// Whether the WAL could not grow to `checkpointFrames` in the free space of the database's volume.
    private func isSpaceShort(_ database: SQLiteDatabase) -> Bool {
        guard let available = availableBytesForTesting ?? DatabaseFile.availableBytes(in: directory) else {
            return false
        }
        return available / walFrameBytes < Self.checkpointFrames - database.walFrameCount
    }

    /// Latches `error` if it reports a damaged database or a full disk.
    private func note(_ error: any Error) {
        guard let error = error as? StorageError else { return }
        if error.code == .corrupt { markDamaged(error) }
        if error.code == .unavailable, error.unavailability == .diskFull { fullDisk = fullDisk ?? error }
    }

    /// After a full disk, before anything more is written: a TRUNCATE checkpoint. Without it the node stays wedged
    /// after space is freed: the WAL cannot restart while it holds frames not yet in the database file, so each write
    /// appends to it and takes the freed space before a checkpoint (which must grow the database file) can use it;
    /// on a volume smaller than the WAL's checkpoint threshold no checkpoint even starts. So while the disk is known
    /// full, each batch first copies the WAL into the database file and truncates it (the freed space goes there
    /// first), and writes only once that succeeded, into an empty WAL.
    /// - Returns: the refusal for the batch while the checkpoint cannot complete (the disk is still full); nil to
    ///   write.
    private func recoverFromFullDisk(_ database: SQLiteDatabase) -> StorageError? {
        guard let full = fullDisk else { return nil }
        do throws(StorageError) {
            if diskStaysFullForTesting {
                throw StorageError.unavailable(.diskFull, "wal_checkpoint(TRUNCATE): the disk stays full (test)")
            }
            try database.checkpointTruncating()
            fullDisk = nil
            return nil
        } catch  where error.code == .busy {
            // A reader still on the WAL, or the background checkpoint running: the write may fit; the next batch
            // tries the checkpoint again.
            return nil
        } catch {
            note(error)
            if error.code == .corrupt { return Self.refusal(error) }
            if error.code == .unavailable, error.unavailability != .diskFull { return error }
            return .unavailable(
                .diskFull,
                "write refused: the database's disk is full (\(full.reason)); the checkpoint that would make room "
                    + "failed: \(error.reason)")
        }
    }

    // MARK: test seams

    /// Sets `PRAGMA max_page_count` on this connection (`nil`: SQLite's maximum): a database file that may grow no
    /// further answers SQLITE_FULL, as a full disk does.
    func setMaxPageCountForTesting(_ pages: Int?) throws(StorageError) {
        guard let database else { throw StorageError(.closed, "SQLite store is closed") }
        try database.executeScript("PRAGMA max_page_count = \(pages ?? 4_294_967_294)")
    }

    /// Makes the checkpoint after a full disk fail (`true`), as on a disk that stays full, or run again (`false`).
    func setDiskStaysFullForTesting(_ full: Bool) {
        diskStaysFullForTesting = full
    }

    /// Makes the writer see `bytes` free on the database's volume (`nil`: the volume's own figure).
    func setAvailableBytesForTesting(_ bytes: Int?) {
        availableBytesForTesting = bytes
    }

    /// Runs one body inside SAVEPOINT … RELEASE; a throwing body is rolled back to its savepoint only.
    private func runInSavepoint(_ job: Job, _ database: SQLiteDatabase) -> Result<any Sendable, any Error> {
        do {
            try database.execute("SAVEPOINT body")
        } catch {
            return .failure(error)
        }
        let transaction = SQLiteTransaction(database: database)
        do {
            let value = try job.body(transaction)
            try database.execute("RELEASE body")
            return .success(value)
        } catch {
            if !database.isAutocommit {
                do {
                    try database.execute("ROLLBACK TO body")
                    try database.execute("RELEASE body")
                } catch {
                    // Cannot undo this body alone: undo the whole transaction (the caller sees autocommit).
                    _ = try? database.execute("ROLLBACK")
                }
            }
            return .failure(error)
        }
    }

    /// Refuses new writes, waits for queued ones to commit, then closes the connection.
    func close() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let finished = pending.withLock { pending -> Bool in
                pending.isClosed = true
                guard pending.isDraining else { return true }
                pending.closeWaiters.append(continuation)
                return false
            }
            if finished { continuation.resume() }
        }
        database = nil
    }
}
