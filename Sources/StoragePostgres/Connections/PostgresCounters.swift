import Synchronization

/// The running counts behind `PostgresStatistics`, shared by a store's pool, its connections and its transactions.
/// Each count is read on its own, for `/metrics` (relaxed atomics for the frequent ones).
final class PostgresCounters: Sendable {
    /// Why a transaction was run again (`PostgresStore.transaction`).
    enum Retry: Int, CaseIterable {
        case connectionLost, serialization, staleStatement
    }

    /// What asking the database about a COMMIT whose connection broke concluded (`CommitResolution`).
    enum Resolution: Int, CaseIterable {
        case committed, rolledBack, unknown
    }

    let connectionsOpened = Atomic<Int>(0)
    let connectFailures = Atomic<Int>(0)
    let leaseWaits = Atomic<Int>(0)
    let leaseWaitNanoseconds = Atomic<Int>(0)
    /// The exchanges with the server whose answer a connection waited for (a statement, a prepare, a pipeline): what
    /// the round-trip tests count.
    let roundTrips = Atomic<Int>(0)
    /// Rare events (a retry, a COMMIT in doubt): one lock for both tables.
    private let rare = Mutex(
        (
            retries: [Int](repeating: 0, count: Retry.allCases.count),
            resolutions: [Int](repeating: 0, count: Resolution.allCases.count)
        ))

    func count(_ retry: Retry) { rare.withLock { $0.retries[retry.rawValue] += 1 } }
    func count(_ resolution: Resolution) { rare.withLock { $0.resolutions[resolution.rawValue] += 1 } }
    func retries(_ retry: Retry) -> Int { rare.withLock { $0.retries[retry.rawValue] } }
    func resolutions(_ resolution: Resolution) -> Int { rare.withLock { $0.resolutions[resolution.rawValue] } }
}
