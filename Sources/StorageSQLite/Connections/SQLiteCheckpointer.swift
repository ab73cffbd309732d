import Dispatch
import Storage
import Synchronization

/// Copies committed WAL frames into the database file on a connection and a thread of its own, so the writer
/// does not stall while the copy runs.
///
/// A checkpoint writes each page the WAL holds back to its place in the database file and fsyncs the file. Pages of
/// hash-keyed indexes (refresh tokens, sessions) sit at random places, so the copy's cost grows with the database:
/// measured here, about 4 ms per 1,000 frames in a fresh database and 11 ms with a million refresh tokens. Run on
/// the writer, every write queued behind it for that long. A PASSIVE checkpoint on another connection blocks
/// neither the writer nor the readers (SQLite WAL, §"Checkpointing"): the writer keeps committing while it copies.
///
/// A WAL restarts from its beginning only when a write transaction starts after every frame was copied; frames
/// committed during a background copy prevent that. So once the background copy is done, the writer copies
/// those few frames itself (`SQLiteWriterConnection`), and the WAL stays near its threshold instead of growing.
final class SQLiteCheckpointer: @unchecked Sendable {  // `database` is only touched on `queue`; the rest is locked
    private struct State {
        var isRunning = false
        var finishedUnseen = false
        var statistics = SQLiteCheckpointStatistics()
    }

    private let queue: DispatchQueue
    private var database: SQLiteDatabase?
    private let state = Mutex(State())

    /// Opens the checkpoint connection (the writer has created the file and set WAL mode). Its `synchronous`
    /// level is the writer's: a checkpoint fsyncs the WAL before copying and the database file after, so the WAL
    /// is never rewound over frames whose pages are not yet durable in the database file.
    init(_ configuration: SQLiteConfiguration, label: String) throws(StorageError) {
        queue = DispatchQueue(label: label)
        let database = try SQLiteDatabase(
            path: configuration.path, readOnly: false,
            busyTimeoutMilliseconds: Int32(configuration.busyTimeoutMilliseconds))
        try database.executeScript("PRAGMA synchronous = \(configuration.synchronous.pragmaValue)")
        self.database = database
    }

    /// Starts a background checkpoint unless one is running. Called by the writer after a batch.
    func start() {
        let idle = state.withLock { state -> Bool in
            guard !state.isRunning else { return false }
            state.isRunning = true
            return true
        }
        guard idle else { return }
        queue.async { self.run() }
    }

    /// Whether a background checkpoint is running now.
    var isRunning: Bool { state.withLock { $0.isRunning } }

    /// Whether a background checkpoint has finished since the last call (the writer then copies the rest).
    func takeFinished() -> Bool {
        state.withLock { state in
            defer { state.finishedUnseen = false }
            return state.finishedUnseen
        }
    }

    /// Counts for `SQLiteStore.checkpointStatistics`; the writer adds its own through `record`.
    var statistics: SQLiteCheckpointStatistics { state.withLock { $0.statistics } }

    /// Adds to the counts (the writer's checkpoints).
    func record(_ change: (inout SQLiteCheckpointStatistics) -> Void) {
        state.withLock { change(&$0.statistics) }
    }

    /// Waits for a running checkpoint (off the cooperative pool), then closes the connection.
    func close() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            queue.async {
                self.database = nil
                continuation.resume()
            }
        }
    }

    private func run() {
        var succeeded = false
        do {
            // A failure (an I/O error; BUSY cannot happen, the writer copies only while this is idle) loses
            // nothing: the frames stay in the WAL and a later checkpoint copies them.
            try database?.checkpointPassive()
            succeeded = database != nil
        } catch {}
        state.withLock { state in
            state.isRunning = false
            if succeeded {
                state.finishedUnseen = true
                state.statistics.background += 1
            } else {
                state.statistics.failures += 1
            }
        }
    }
}
