import Dispatch
import Foundation
import Synchronization

/// What `--server-pid` and `--database-pid` measured over the measured window: the server's CPU seconds and
/// context switches, the database's CPU seconds (`nil`: not asked for, or the process could not be read).
struct WindowCounters: Sendable, Equatable {
    var serverCPUSeconds: Double?
    var serverContextSwitches: Int?
    var databaseCPUSeconds: Double?

    /// The window's figures from the samples at its start and its end.
    init(server: (ProcessCounters?, ProcessCounters?), database: (ProcessCounters?, ProcessCounters?)) {
        if let first = server.0, let last = server.1 {
            serverCPUSeconds = last.cpuSeconds - first.cpuSeconds
            serverContextSwitches = last.contextSwitches(since: first)
        }
        if let first = database.0, let last = database.1 { databaseCPUSeconds = last.cpuSeconds - first.cpuSeconds }
    }
}

/// Samples the processes named by `--server-pid` and `--database-pid` when the measured window opens and when it
/// closes, on a thread of its own that sleeps in between (the login loops never wait for it).
final class WindowSampler: Sendable {
    private let counters = Mutex<WindowCounters?>(nil)
    private let finished = DispatchGroup()

    /// Starts sampling `serverPID` and `databasePID` at `measureFrom` and at `deadline` (`DispatchTime`
    /// nanoseconds).
    init(serverPID: Int32?, databasePID: Int32?, measureFrom: UInt64, deadline: UInt64) {
        finished.enter()
        let thread = Thread { [self] in
            func sample() -> (ProcessCounters?, ProcessCounters?) {
                (serverPID.flatMap(ProcessCounters.server(pid:)), databasePID.flatMap(ProcessCounters.database(pid:)))
            }
            Self.sleep(until: measureFrom)
            let first = sample()
            Self.sleep(until: deadline)
            let last = sample()
            counters.withLock { $0 = WindowCounters(server: (first.0, last.0), database: (first.1, last.1)) }
            finished.leave()
        }
        thread.stackSize = 1 << 20
        thread.start()
    }

    /// The window's figures, once it has closed (waits for the closing sample).
    func result() -> WindowCounters? {
        finished.wait()
        return counters.withLock { $0 }
    }

    /// Sleeps until `instant` (`DispatchTime` nanoseconds); returns at once when it has passed.
    private static func sleep(until instant: UInt64) {
        while true {
            let now = DispatchTime.now().uptimeNanoseconds
            guard now < instant else { return }
            usleep(UInt32(min((instant - now) / 1000 + 1, 100_000)))
        }
    }
}
