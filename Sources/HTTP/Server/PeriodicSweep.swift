import Dispatch
import Foundation
import Synchronization

/// A thread of its own that runs a sweep a few times per limit it enforces, until cancelled: how the HTTP layer
/// checks its deadlines (responders past `requestDeadline`, requests past `requestReadTimeout`).
///
/// Not a task: the responders run on Swift's cooperative pool, one thread per core, and when they keep every one of
/// its threads busy (a burst of CPU-bound logins, a responder that blocks) a sweep queued behind them would answer
/// their overdue requests late, the very moment it exists for. A sleeping thread is woken by the kernel on time.
final class PeriodicSweep: Sendable {
    /// Signalled by `cancel` to end the wait at once.
    private let wake = DispatchSemaphore(value: 0)
    /// Signalled by the thread as it ends.
    private let ended = DispatchSemaphore(value: 0)
    private let cancelled = Atomic<Bool>(false)

    private init() {}

    /// Starts `sweep` every eighth of `limit`, at least every 250 ms and at most every 10 ms, on a thread named
    /// `name` (at most 15 bytes: Linux's limit on a thread's name, longer ones are not set).
    static func start(bounding limit: Duration, name: String, _ sweep: @escaping @Sendable () -> Void)
        -> PeriodicSweep
    {
        let interval = min(max(limit / 8, .milliseconds(10)), .milliseconds(250))
        let nanoseconds =
            Int(interval.components.seconds) * 1_000_000_000
            + Int(interval.components.attoseconds / 1_000_000_000)
        let sweeper = PeriodicSweep()
        let thread = Thread { [sweeper] in
            // Named from inside: on Linux a name given before `start` does not reach the thread (top -H, gdb, perf).
            Thread.current.name = name
            defer { sweeper.ended.signal() }
            while sweeper.wake.wait(timeout: .now() + .nanoseconds(nanoseconds)) == .timedOut {
                guard !sweeper.cancelled.load(ordering: .acquiring) else { return }
                sweep()
            }
        }
        thread.start()
        return sweeper
    }

    /// Stops the sweeps and waits until the thread has ended, so that no sweep runs after this returns (the owner
    /// may then free what the sweep touches). Idempotent.
    func cancel() {
        guard !cancelled.exchange(true, ordering: .acquiringAndReleasing) else { return }
        wake.signal()
        ended.wait()
    }
}
