import Foundation

/// The recordings record mode chose not to write, counted by reason and reported in one log line at most once per
/// `interval`: a client that floods the token endpoint with oversized ceremonies must not flood the log as well.
///
/// The first one is reported at once (the operator learns of it), the next ones in one line per interval with the
/// counts since the previous line, and what is still unreported when the recorder drains at stop. The time is the
/// ceremony's (the server's clock), never read here.
package struct UnwrittenRecordings: Sendable {
    /// Why a recording was not written.
    package enum Reason: String, Sendable, CaseIterable {
        /// Larger than `recording.max_file_bytes`.
        case tooLarge = "too_large"
        /// `CeremonyRecorder.backlogLimit` recordings already waited for the disk.
        case backlogFull = "backlog_full"
    }

    /// The shortest time between two report lines.
    package static let interval: TimeInterval = 60

    /// Counts since the last report line, by reason.
    private var unreported: [Reason: Int] = [:]
    /// Counts since the start, by reason.
    private(set) var total: [Reason: Int] = [:]
    private var lastReport: Date?

    /// Counts one recording not written for `reason` at `time`.
    /// - Returns: the counts to log now, by reason, when a line is due; `nil` otherwise.
    package mutating func count(_ reason: Reason, at time: Date) -> [Reason: Int]? {
        unreported[reason, default: 0] += 1
        total[reason, default: 0] += 1
        // A clock set back counts as time passed, so reports never stop for it.
        if let lastReport, abs(time.timeIntervalSince(lastReport)) < Self.interval { return nil }
        lastReport = time
        return takeUnreported()
    }

    /// The counts not yet reported, now reported; `nil` when there are none.
    package mutating func takeUnreported() -> [Reason: Int]? {
        guard !unreported.isEmpty else { return nil }
        defer { unreported = [:] }
        return unreported
    }
}
