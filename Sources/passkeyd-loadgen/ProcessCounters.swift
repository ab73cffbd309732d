import Foundation
import Glibc

/// CPU time and context switches of another process on this machine, read from Linux's /proc, for `--server-pid`
/// and `--database-pid`: the load generator samples them when its measured window opens and when it closes, so that
/// a per-login figure covers exactly the logins it counts (not its warm-up, nor the logins still in flight after it).
struct ProcessCounters: Sendable, Equatable {
    /// User plus system CPU seconds.
    var cpuSeconds: Double
    /// Context switches (voluntary and involuntary) of each live thread, by thread id; empty when not read.
    var threadSwitches: [Int: Int]

    /// The context switches made from `earlier` to this sample: each thread's growth. A thread started since counts
    /// in full; one that ended since is lost (Linux keeps an ended thread's count only for getrusage(2) of its own
    /// process), which a server's long-lived threads make rare.
    func contextSwitches(since earlier: ProcessCounters) -> Int {
        threadSwitches.reduce(0) { sum, entry in sum + max(0, entry.value - (earlier.threadSwitches[entry.key] ?? 0)) }
    }

    /// A server process: its CPU time (every thread, ended ones included) and each live thread's context switches
    /// (/proc/PID/task/TID/status); `nil` when the process cannot be read.
    static func server(pid: Int32) -> ProcessCounters? {
        guard let stat = ProcFile.read("/proc/\(pid)/stat"), let ticks = StatLine(stat) else { return nil }
        var switches: [Int: Int] = [:]
        for name in (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task")) ?? [] {
            guard let tid = Int(name), let status = ProcFile.read("/proc/\(pid)/task/\(name)/status"),
                let count = contextSwitches(status: status)
            else { continue }
            switches[tid] = count
        }
        return ProcessCounters(cpuSeconds: seconds(ticks.own), threadSwitches: switches)
    }

    /// A database server's processes (PostgreSQL's postmaster and its backends): the process's own CPU time, that of
    /// the children it has reaped, and that of its live children (found by their parent's id, since a backend's
    /// command line does not name its cluster); context switches are not read. `nil` when the process cannot be read.
    static func database(pid: Int32) -> ProcessCounters? {
        guard let stat = ProcFile.read("/proc/\(pid)/stat"), let root = StatLine(stat) else { return nil }
        var ticks = root.own + root.reaped
        for name in (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? [] {
            guard Int32(name) != nil, let text = ProcFile.read("/proc/\(name)/stat"), let line = StatLine(text),
                line.parent == pid
            else { continue }
            ticks += line.own
        }
        return ProcessCounters(cpuSeconds: seconds(ticks), threadSwitches: [:])
    }

    /// The sum of `voluntary_ctxt_switches` and `nonvoluntary_ctxt_switches` in a /proc status file.
    static func contextSwitches(status: String) -> Int? {
        var total: Int?
        for line in status.split(separator: "\n")
        where line.hasPrefix("voluntary_ctxt_switches:") || line.hasPrefix("nonvoluntary_ctxt_switches:") {
            guard let value = line.split(separator: ":").last.flatMap({ Int($0.trimmingCharacters(in: .whitespaces)) })
            else { return nil }
            total = (total ?? 0) + value
        }
        return total
    }

    private static func seconds(_ ticks: Int) -> Double { Double(ticks) / Double(max(1, sysconf(Int32(_SC_CLK_TCK)))) }
}

/// The fields of a /proc/PID/stat line the counters use, in clock ticks (proc(5)).
struct StatLine: Equatable {
    /// utime + stime: the process's own CPU time, all its threads.
    let own: Int
    /// cutime + cstime: the CPU time of the children it has waited for.
    let reaped: Int
    /// ppid.
    let parent: Int32

    /// Parses a stat line; the command name (field 2) is skipped up to its last ")", since it may hold spaces and
    /// parentheses itself. `nil` when the line is not one.
    init?(_ text: String) {
        guard let close = text.lastIndex(of: ")") else { return nil }
        // After the name: field 3 (state) first, so field n is at index n - 3.
        let fields = text[text.index(after: close)...].split(separator: " ")
        guard fields.count > 14, let parent = Int32(fields[1]), let utime = Int(fields[11]),
            let stime = Int(fields[12]), let cutime = Int(fields[13]), let cstime = Int(fields[14])
        else { return nil }
        own = utime + stime
        reaped = cutime + cstime
        self.parent = parent
    }
}

/// Reads a /proc file whole (their sizes read as 0, so it is read until the end rather than by its size).
enum ProcFile {
    static func read(_ path: String) -> String? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = chunk.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            guard count >= 0 else { return nil }
            if count == 0 { break }
            bytes += chunk[0..<count]
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
