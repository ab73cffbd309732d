import Storage
import Synchronization

/// Whether the store accepts writes, for `/readyz`: a heartbeat write (`StoreWriter.recordHeartbeat`, one row
/// overwritten), at most once per `interval`; callers in between get the last answer. A read-only file, a full
/// disk, an I/O error or a damaged page fails the heartbeat as it fails every other write, so readiness says
/// what the endpoints would meet.
package final class ReadinessProbe: Sendable {
    /// What the last heartbeat found.
    package enum Status: Sendable, Equatable {
        /// The heartbeat committed.
        case ready
        /// The heartbeat failed (the error's description, for the log).
        case unavailable(String)
        /// The database file is damaged (SQLITE_CORRUPT / SQLITE_NOTADB): writes are refused until it is restored.
        case damaged(String)
    }

    /// The most one heartbeat answer is reused.
    package static let interval: Duration = .seconds(1)

    private struct Cache: Sendable {
        var status: Status?
        var checkedAt: ContinuousClock.Instant?
        var isChecking = false
    }

    private let store: any Store
    private let clock: any WallClock
    private let cache = Mutex(Cache())

    package init(store: any Store, clock: any WallClock) {
        self.store = store
        self.clock = clock
    }

    /// The store's status: the cached answer if younger than `interval` (or if a heartbeat is already running),
    /// else a new heartbeat's.
    package func status() async -> Status {
        let now = ContinuousClock.now
        let cached = cache.withLock { cache -> Status? in
            if let status = cache.status, let checkedAt = cache.checkedAt,
                now - checkedAt < Self.interval || cache.isChecking
            {
                return status
            }
            cache.isChecking = true
            return nil
        }
        if let cached { return cached }
        let status: Status
        do {
            let beat = clock.now()
            try await store.write { try $0.recordHeartbeat(at: beat) }
            status = .ready
        } catch let error as StorageError where error.code == .corrupt {
            status = .damaged(error.description)
        } catch {
            status = .unavailable(String(describing: error))
        }
        cache.withLock { cache in
            cache.status = status
            cache.checkedAt = ContinuousClock.now
            cache.isChecking = false
        }
        return status
    }
}
