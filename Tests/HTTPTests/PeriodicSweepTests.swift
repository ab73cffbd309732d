import Foundation
import Synchronization
import Testing

@testable import HTTP

@Suite("The deadline sweeps run on a thread of their own")
struct PeriodicSweepTests {
    /// The sweeps that ran, each with the name of the thread it ran on.
    final class Sweeps: Sendable {
        let threads = Mutex<[String]>([])
        var count: Int { threads.withLock { $0.count } }
    }

    @Test("every sweep runs on the named thread, off the cooperative pool; none runs once cancel has returned")
    func ownThread() async throws {
        let sweeps = Sweeps()
        let sweeper = PeriodicSweep.start(bounding: .milliseconds(80), name: "pkd.test-sweep") {
            let name = Thread.current.name ?? ""
            sweeps.threads.withLock { $0.append(name) }
        }
        let start = ContinuousClock.now
        while sweeps.count < 3, ContinuousClock.now - start < .seconds(10) {
            try await Task.sleep(for: .milliseconds(10))
        }
        sweeper.cancel()
        let afterCancel = sweeps.count
        #expect(afterCancel >= 3)
        let names = sweeps.threads.withLock { $0 }
        #expect(names.allSatisfy { $0 == "pkd.test-sweep" }, "\(names)")
        try await Task.sleep(for: .milliseconds(100))  // ten intervals
        #expect(sweeps.count == afterCancel)
        sweeper.cancel()  // idempotent
    }
}
