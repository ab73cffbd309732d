import Dispatch
import Foundation
import SoftwareClient

/// The `--login` mode: every virtual client loops over full logins until the deadline; the whole login
/// (challenge request, signing, token request) is timed, and the figures are reported as one JSON line. With
/// `--transport poll` the clients run in `EventLoopLogin`'s loops, otherwise one thread each.
struct LoginBenchmark {
    let clients: VirtualClients
    let credentials: [VirtualCredential]

    /// What one thread measured.
    struct ThreadResult: Sendable {
        var successes = 0
        var failures = 0
        /// Whole-login latencies in microseconds, measured logins only.
        var latencies: [UInt32] = []
        /// Time spent between the challenge response and sending the token request (parse, sign, serialise).
        var clientWorkNanoseconds: UInt64 = 0
        var firstErrors: [String] = []
        var connects = 0
        /// Successful logins that ended inside the measured window, wherever they began: the logins the window's
        /// server CPU (`--server-pid`) was spent on, give or take the ones in flight at its edges.
        var completedInWindow = 0
    }

    func run() -> String {
        let settings = clients.settings
        let count = settings.concurrency
        let credentials = credentials
        let start = DispatchTime.now().uptimeNanoseconds
        let measureFrom = start + UInt64(settings.warmup * 1e9)
        let deadline = measureFrom + UInt64(settings.seconds * 1e9)
        let cpuBefore = Self.processCPUSeconds()
        let sampler =
            settings.serverPID == nil && settings.databasePID == nil
            ? nil
            : WindowSampler(
                serverPID: settings.serverPID, databasePID: settings.databasePID, measureFrom: measureFrom,
                deadline: deadline)
        if settings.transport == .poll {
            let results = EventLoopLogin(
                clients: clients, credentials: credentials, measureFrom: measureFrom, deadline: deadline, start: start
            ).run()
            return Self.report(
                results, settings: settings, loadgenCPUSeconds: Self.processCPUSeconds() - cpuBefore,
                window: sampler?.result())
        }
        let results = clients.run(count: count) { index in
            let client = clients.makeClient()
            // Each client owns the credentials index, index + count, …; with fewer credentials than clients,
            // clients share (safe: these credentials never count).
            var owned = stride(from: index, to: credentials.count, by: count).map { credentials[$0] }
            if owned.isEmpty { owned = [credentials[index % credentials.count]] }
            var result = ThreadResult()
            result.latencies.reserveCapacity(Int(settings.seconds * 2000))
            var next = 0
            while true {
                let began = DispatchTime.now().uptimeNanoseconds
                if began >= deadline { break }
                do {
                    _ = try client.logIn(with: &owned[next], clientWork: &result.clientWorkNanoseconds)
                    let ended = DispatchTime.now().uptimeNanoseconds
                    if began >= measureFrom && ended <= deadline {
                        result.successes += 1
                        result.latencies.append(UInt32(min((ended - began) / 1000, UInt64(UInt32.max))))
                    }
                    if ended >= measureFrom && ended <= deadline { result.completedInWindow += 1 }
                } catch {
                    if began >= measureFrom { result.failures += 1 }
                    if result.firstErrors.count < 3 { result.firstErrors.append("\(error)") }
                }
                next = (next + 1) % owned.count
            }
            if let socket = client.transport as? SocketConnection { result.connects = socket.connects }
            return result
        }
        let cpu = Self.processCPUSeconds() - cpuBefore
        return Self.report(results, settings: settings, loadgenCPUSeconds: cpu, window: sampler?.result())
    }

    /// The JSON line of a run; `window` adds what `--server-pid` and `--database-pid` measured.
    static func report(
        _ results: [ThreadResult], settings: LoadgenSettings, loadgenCPUSeconds: Double, window: WindowCounters?
    ) -> String {
        let successes = results.reduce(0) { $0 + $1.successes }
        let failures = results.reduce(0) { $0 + $1.failures }
        let latencies = results.flatMap(\.latencies).sorted()
        func percentile(_ p: Double) -> Double {
            guard !latencies.isEmpty else { return 0 }
            let rank = min(latencies.count - 1, Int((p * Double(latencies.count)).rounded(.up)) - 1)
            return Double(latencies[max(0, rank)]) / 1000
        }
        let work = results.reduce(UInt64(0)) { $0 + $1.clientWorkNanoseconds }
        let attempts = max(1, results.reduce(0) { $0 + $1.successes + $1.failures })
        let errors = Array(Set(results.flatMap(\.firstErrors))).prefix(3)
        for error in errors { FileHandle.standardError.write(Data("passkeyd-loadgen: \(error)\n".utf8)) }
        var fields: [String] = [
            "\"mode\":\"login\"",
            "\"transport\":\"\(settings.transport.rawValue)\"",
            "\"concurrency\":\(settings.concurrency)",
            "\"offered_per_second\":\(settings.rate.map { format($0) } ?? "null")",
            "\"seconds\":\(settings.seconds)",
            "\"logins\":\(successes)",
            "\"failures\":\(failures)",
            "\"logins_per_second\":\(format(Double(successes) / settings.seconds))",
            "\"p50_ms\":\(format(percentile(0.50)))",
            "\"p90_ms\":\(format(percentile(0.90)))",
            "\"p99_ms\":\(format(percentile(0.99)))",
            "\"max_ms\":\(format(latencies.last.map { Double($0) / 1000 } ?? 0))",
            "\"client_work_us_per_login\":\(format(Double(work) / 1000 / Double(attempts)))",
            "\"loadgen_cpu_seconds\":\(format(loadgenCPUSeconds))",
            "\"connections\":\(results.reduce(0) { $0 + $1.connects })",
            "\"completed_in_window\":\(results.reduce(0) { $0 + $1.completedInWindow })",
        ]
        if let cpu = window?.serverCPUSeconds { fields.append("\"server_window_cpu_seconds\":\(format(cpu))") }
        if let switches = window?.serverContextSwitches {
            fields.append("\"server_window_context_switches\":\(switches)")
        }
        if let cpu = window?.databaseCPUSeconds { fields.append("\"database_window_cpu_seconds\":\(format(cpu))") }
        return "{" + fields.joined(separator: ",") + "}"
    }

    static func format(_ value: Double) -> String { String(format: "%.2f", value) }

    /// User plus system CPU time of this process (getrusage).
    static func processCPUSeconds() -> Double {
        var usage = rusage()
        guard getrusage(RUSAGE_SELF.rawValue, &usage) == 0 else { return 0 }
        return Double(usage.ru_utime.tv_sec) + Double(usage.ru_utime.tv_usec) / 1e6 + Double(usage.ru_stime.tv_sec)
            + Double(usage.ru_stime.tv_usec) / 1e6
    }
}
