import Storage
import Synchronization

/// Whether the store accepts writes, for `/readyz`: a heartbeat write (`StoreWriter.recordHeartbeat`, one row
/// overwritten), at most once per `interval`; callers in between get the last answer. A read-only file, a full
/// disk, an I/O error or a damaged page fails the heartbeat as it fails every other write, so readiness says
/// what the endpoints would meet. A heartbeat may still fit where other writes do not (PostgreSQL on a full disk
/// overwrites the row in a page it has, and refuses the writes that need a new one): so a request's write refused
/// because the database cannot take writes (`StorageError.unavailable`, `noteUnavailable`) makes readiness
/// unavailable at once, cache or not, for `failureHold`.
package final class ReadinessProbe: Sendable {
    /// What the last heartbeat found.
    package enum Status: Sendable, Equatable {
        /// The heartbeat committed.
        case ready
        /// The heartbeat failed, or a request's write was refused by a database that cannot take writes within
        /// `failureHold`: the error's description (for the log), and why the database cannot take writes when known
        /// (`StorageError.unavailable`).
        case unavailable(String, StorageError.Unavailability?)
        /// The database file is damaged (SQLITE_CORRUPT / SQLITE_NOTADB): writes are refused until it is restored.
        case damaged(String)
    }

    /// The most one heartbeat answer is reused.
    package static let interval: Duration = .seconds(1)

    /// How long a request's write refused with `.unavailable` keeps readiness unavailable after it. Long enough for a
    /// load balancer's probes to see it; once traffic stops, readiness turns ready again after it unless the
    /// heartbeat fails, and the next refused write makes it unavailable again.
    package static let failureHold: Duration = .seconds(5)

    private struct Cache: Sendable {
        var status: Status?
        var checkedAt: ContinuousClock.Instant?
        var isChecking = false
        /// The last request's write refused with `.unavailable`, and when.
        var refusal: (status: Status, at: ContinuousClock.Instant)?
    }

    private let store: any Store
    private let clock: any WallClock
    private let hold: Duration
    private let cache = Mutex(Cache())

    /// A probe of `store`, whose heartbeats record `clock`'s time; a refused write counts for `failureHold`.
    package init(store: any Store, clock: any WallClock, failureHold: Duration = ReadinessProbe.failureHold) {
        self.store = store
        self.clock = clock
        self.hold = failureHold
    }

    /// Records a request's write refused because the database cannot take writes (`StorageError.unavailable`):
    /// `status()` is unavailable from now until `failureHold` has passed.
    package func noteUnavailable(_ unavailability: StorageError.Unavailability?, reason: String) {
        let now = ContinuousClock.now
        cache.withLock { $0.refusal = (.unavailable(reason, unavailability), now) }
    }

    /// The store's status: unavailable while a refused write is younger than `failureHold`; otherwise the cached
    /// answer if younger than `interval` (or if a heartbeat is already running), else a new heartbeat's.
    package func status() async -> Status {
        let now = ContinuousClock.now
        let cached = cache.withLock { cache -> Status? in
            if let refusal = cache.refusal, now - refusal.at < hold { return refusal.status }
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
        } catch let error as StorageError {
            status = .unavailable(error.description, error.unavailability)
        } catch {
            status = .unavailable(String(describing: error), nil)
        }
        cache.withLock { cache in
            cache.status = status
            cache.checkedAt = ContinuousClock.now
            cache.isChecking = false
        }
        return status
    }
}
