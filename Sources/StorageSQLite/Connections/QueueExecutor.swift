import Dispatch

/// A serial executor running jobs on a private serial DispatchQueue, so a connection actor's blocking SQLite
/// calls occupy that queue's thread and never a thread of the cooperative pool. [GRDB]
///
/// (`DispatchSerialQueue` is not an executor in swift-corelibs-libdispatch on Linux, hence this small adapter.)
final class QueueExecutor: SerialExecutor {
    private let queue: DispatchQueue

    init(label: String) {
        queue = DispatchQueue(label: label)
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let executor = asUnownedSerialExecutor()
        queue.async { job.runSynchronously(on: executor) }
    }

    func asUnownedSerialExecutor() -> UnownedSerialExecutor {
        UnownedSerialExecutor(ordinary: self)
    }
}
