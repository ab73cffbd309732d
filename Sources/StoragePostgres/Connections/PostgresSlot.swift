import Dispatch
import Storage

/// One pooled connection and the serial queue its blocking libpq calls run on (never a thread of the cooperative
/// pool). The pool leases a slot to one transaction at a time, and the connection is touched only by jobs on the
/// queue, hence `@unchecked Sendable`.
final class PostgresSlot: @unchecked Sendable {
    let index: Int
    private let queue: DispatchQueue
    private let connection: PostgresConnection

    init(index: Int, configuration: PostgresConfiguration, counters: PostgresCounters, gate: ConnectGate) {
        self.index = index
        queue = DispatchQueue(label: "passkeyd.postgres.\(index)")
        connection = PostgresConnection(configuration: configuration, counters: counters, gate: gate)
    }

    /// Runs `work` with the connection on the slot's queue and returns its result.
    func run<T: Sendable>(_ work: @escaping @Sendable (PostgresConnection) throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            queue.async {
                continuation.resume(with: Result { try work(self.connection) })
            }
        }
    }

    /// Closes the connection (after any job already queued).
    func close() async {
        await withCheckedContinuation { continuation in
            queue.async {
                self.connection.disconnect()
                continuation.resume()
            }
        }
    }
}
