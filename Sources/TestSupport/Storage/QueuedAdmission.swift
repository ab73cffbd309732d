import Foundation
import Storage
import Synchronization

/// The check for a store whose writes queue (SQLite's one writer, a PostgreSQL pool of one connection): a write
/// that waits behind another is admitted (`WriteAdmission`) when its turn comes, not when it is called, so that
/// the wait counts against a request's deadline.
public enum QueuedAdmission {
    /// Holds `store`'s only writer with a write whose body takes `hold`, calls a second write meanwhile, and
    /// checks that the second one's admission was asked only after the first body ended.
    public static func check(_ store: any Store, hold: TimeInterval = 0.8) async throws {
        let firstStarted = Mutex(false)
        let firstEnded = Mutex<ContinuousClock.Instant?>(nil)
        let first = Task {
            try await store.write { writer in
                try writer.insertAuthSession(StoreSamples.session("first"))
                firstStarted.withLock { $0 = true }
                Thread.sleep(forTimeInterval: hold)  // holds the writer (or the pool's only connection)
                firstEnded.withLock { $0 = .now }
            }
        }
        while !firstStarted.withLock({ $0 }) { try await Task.sleep(for: .milliseconds(5)) }
        let called = ContinuousClock.now
        let admitted = Mutex<ContinuousClock.Instant?>(nil)
        try await store.write(admission: WriteAdmission { admitted.withLock { $0 = .now } }) {
            try $0.insertAuthSession(StoreSamples.session("second"))
        }
        try await first.value
        let admittedAt = try unwrap(admitted.withLock { $0 }, "the second write was never admitted")
        let endedAt = try unwrap(firstEnded.withLock { $0 }, "the first write's body never ended")
        try expect(
            admittedAt >= endedAt,
            "admitted \(admittedAt - called) after the call, before the write ahead of it ended")
    }

    private static func unwrap<T>(_ value: T?, _ message: String) throws -> T {
        guard let value else { throw ConformanceFailure(message: message, file: #fileID, line: #line) }
        return value
    }
}
