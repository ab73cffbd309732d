import Configuration
import Crypto
import Foundation
import Metadata
import Storage
import Synchronization

/// The FIDO MDS3 BLOB a server uses (`context.metadata`): loaded at start before serving, refreshed every
/// `metadata.refresh_interval_seconds` (`start()`), read lock-cheap by every registration and login (`current()`).
///
/// A refresh (a) re-reads `metadata.blob_file` when it changed (size, modification time, then SHA-256), verifies it
/// at now and stores it (`MetadataBLOBStorage`); a BLOB that does not verify, or is older than the stored one, is
/// refused with an `error` line naming the file and why, and the last good one is kept; (b) picks up a newer BLOB
/// from the store (another node's, or `passkeyd metadata load`'s), verifying it again at the time it was stored: the
/// database is never trusted blindly. A stale BLOB (past its `nextUpdate`) is kept in use, with a `warning` once per
/// interval and in `/metrics`.
package final class MetadataRegistry: Sendable {
    /// What a refresh remembers between runs.
    struct State: Sendable {
        var snapshot: MetadataSnapshot?
        /// The BLOB file as last read: a refresh reads it again only when its size or time changed.
        var file: FileSeen?
        /// The stored BLOB last refused here (serial and hash), so its refusal is logged once, not every interval.
        var refusedStored: (serial: Int64, sha256: [UInt8])?
        /// When the stale warning was last logged.
        var staleWarnedAt: Date?
    }

    /// The BLOB file's inode, size and modification time when last read, the SHA-256 of what was read (nil:
    /// unreadable), and whether the read was racy: within two seconds of the modification time, when a second write
    /// in the same timestamp tick would leave all three unchanged (git's "racy clean" rule), so the next refresh
    /// hashes the file again.
    struct FileSeen: Sendable, Equatable {
        var inode: UInt64?
        var size: UInt64?
        var modified: Date?
        var sha256: [UInt8]?
        var racy = true
    }

    let state = Mutex(State())
    let settings: MetadataSettings
    let store: any Store
    let clock: any WallClock
    let logger: Logger

    /// A registry with nothing loaded yet: `refresh()` loads.
    package init(settings: MetadataSettings, store: any Store, clock: any WallClock, logger: Logger) {
        self.settings = settings
        self.store = store
        self.clock = clock
        self.logger = logger
    }

    /// The verifier of the configured roots and CRLs.
    package var verifier: MetadataBLOBVerifier {
        MetadataBLOBVerifier(roots: settings.roots, crls: settings.crls)
    }

    /// The BLOB in use, nil until one is loaded.
    package func current() -> MetadataSnapshot? {
        state.withLock { $0.snapshot }
    }

    /// One refresh at the clock's now: the file, then the store, then the staleness warning. Never throws: what
    /// fails is logged and the BLOB in use is kept.
    package func refresh() async {
        let now = clock.now()
        if let path = settings.blobFile { await refreshFile(path, now: now) }
        await refreshFromStore()
        warnIfStale(now: now)
    }

    /// Calls `refresh()` every `metadata.refresh_interval_seconds`; cancel the task to stop it.
    package func start() -> Task<Void, Never> {
        let interval = settings.refreshIntervalSeconds
        return Task {
            while !Task.isCancelled {
                do {
                    try await Task.sleep(for: .seconds(interval))
                } catch {
                    return
                }
                await refresh()
            }
        }
    }

    /// Uses `snapshot` unless the one in use is as new; returns whether it did.
    @discardableResult
    func swap(_ snapshot: MetadataSnapshot) -> Bool {
        let swapped = state.withLock { state -> Bool in
            if let current = state.snapshot, current.blob.serial >= snapshot.blob.serial { return false }
            state.snapshot = snapshot
            return true
        }
        if swapped {
            logger.log(.info, "metadata BLOB in use") { line in
                line.add("serial", Int(snapshot.blob.serial))
                line.add("entries", snapshot.catalog.count)
                line.add("next_update", MetadataDay.format(snapshot.blob.nextUpdate))
                line.add("source", snapshot.source)
                if snapshot.blob.skippedStatements > 0 {
                    // MDS3 entries whose statement did not parse are kept without one (their status still counts).
                    line.add("statements_skipped", snapshot.blob.skippedStatements)
                    line.add("first_skipped", snapshot.blob.skippedStatementReasons.first ?? "")
                }
            }
        }
        return swapped
    }
}
