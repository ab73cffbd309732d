import Foundation
import Glibc

/// The file descriptors an HTTP server may need, and the soft RLIMIT_NOFILE raised to cover them.
///
/// Why: a connection limit the process cannot open descriptors for is no limit: past RLIMIT_NOFILE, accept(2) fails
/// with EMFILE and new clients are refused, and so is every file the rest of the process opens, well before the
/// configured limit is reached (the usual default soft limit is 1024). When a server starts, the soft limit is raised
/// to the descriptors open then plus what its configuration needs, or the start is refused when the hard limit does
/// not allow it. Each server is counted on its own, never summed with the others of the process (tests run many at
/// once): a second one (the admin listener, 64 connections) starting beside the first finds the limit already raised
/// for the first one's worst case, every connection open and draining a close at once.
enum DescriptorBudget {
    /// Descriptors for what a server opens besides its connections: the listening socket, a wake-up pipe per polling
    /// thread, and room for the files and sockets of the rest of the process.
    static let overhead = 64

    /// RLIM_INFINITY, `(rlim_t) -1`, which does not import.
    static let unlimited = rlim_t.max

    private static let resource = Int32(RLIMIT_NOFILE.rawValue)

    /// What one server with `configuration` may hold at once: each connection, and a second descriptor of it while
    /// its close drains (`LingeringClose`, at most `connectionLimit` at once), plus `overhead` and its threads.
    static func needed(by configuration: HTTPServer.Configuration) -> Int {
        2 * max(0, configuration.connectionLimit) + 2 * max(1, configuration.threads) + overhead
    }

    /// The soft limit that covers `target` descriptors under limits `soft` and `hard` (`unlimited`: none):
    /// `soft` when it does, `target` when `hard` allows it, else `nil`.
    static func softLimit(covering target: Int, soft: rlim_t, hard: rlim_t) -> rlim_t? {
        let wanted = rlim_t(max(0, target))
        if soft == unlimited || soft >= wanted { return soft }
        if hard == unlimited || hard >= wanted { return wanted }
        return nil
    }

    /// Raises the soft RLIMIT_NOFILE, if need be, to the descriptors open now plus what a server with
    /// `configuration` needs; never lowers it.
    /// - Throws: `.invalidConfiguration` when the hard limit is too low, naming both numbers.
    static func ensure(for configuration: HTTPServer.Configuration) throws(HTTPError) {
        var limits = rlimit()
        guard getrlimit(resource, &limits) == 0 else {
            throw HTTPError(.invalidConfiguration, "cannot read RLIMIT_NOFILE: errno \(errno)")
        }
        let target = openDescriptors() + needed(by: configuration)
        guard let soft = softLimit(covering: target, soft: limits.rlim_cur, hard: limits.rlim_max) else {
            throw HTTPError(
                .invalidConfiguration,
                "a connection limit of \(configuration.connectionLimit) needs about \(target) file descriptors, and "
                    + "the hard RLIMIT_NOFILE is \(limits.rlim_max): raise it (systemd: LimitNOFILE=) or lower the "
                    + "connection limit")
        }
        guard soft != limits.rlim_cur else { return }
        limits.rlim_cur = soft
        guard setrlimit(resource, &limits) == 0 else {
            throw HTTPError(.invalidConfiguration, "cannot raise RLIMIT_NOFILE to \(soft): errno \(errno)")
        }
    }

    /// The descriptors open in this process now (the entries of /proc/self/fd, less the one reading it).
    private static func openDescriptors() -> Int {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd").count) ?? 0
        return max(0, entries - 1)
    }
}
