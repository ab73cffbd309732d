import Configuration
import Foundation
import Synchronization

/// The token quotas of clients (`ClientConfiguration.tokenQuota`): machine tokens counted per client in fixed UTC
/// windows, one hour and one day long. Like `RateLimiter`, the counts live in this node's memory, so behind a load
/// balancer each node allows the quota on its own share (docs/api.md says so); a restart starts them again.
package final class MachineTokenQuota: Sendable {
    /// The decision for one token request.
    package enum Decision: Equatable {
        /// Within the quota (or no quota): counted.
        case allowed
        /// Over an enforced quota: not counted; retry after this many seconds, when the full window ends.
        case limited(retryAfter: Int, window: String)
        /// Over a quota that is not enforced: counted, and allowed.
        case overUnenforced
    }

    private struct Counts {
        var hour = 0
        var hourCount = 0
        var day = 0
        var dayCount = 0
    }

    private let counts = Mutex<[String: Counts]>([:])

    package init() {}

    /// Counts one token for `client` at `now` unless its enforced quota is full.
    package func admit(_ client: ClientConfiguration, now: Date) -> Decision {
        guard let quota = client.tokenQuota else { return .allowed }
        let seconds = Int(now.timeIntervalSince1970.rounded(.down))
        let hour = seconds / 3_600
        let day = seconds / 86_400
        return counts.withLock { table -> Decision in
            var entry = table[client.clientID] ?? Counts()
            if entry.hour != hour { (entry.hour, entry.hourCount) = (hour, 0) }
            if entry.day != day { (entry.day, entry.dayCount) = (day, 0) }
            // The window that is full and ends last decides when a token can be had again.
            var full: (window: String, endsIn: Int)?
            if let perDay = quota.perDay, entry.dayCount >= perDay {
                full = ("per_day", (day + 1) * 86_400 - seconds)
            }
            if full == nil, let perHour = quota.perHour, entry.hourCount >= perHour {
                full = ("per_hour", (hour + 1) * 3_600 - seconds)
            }
            if let full, quota.enforce {
                table[client.clientID] = entry
                return .limited(retryAfter: max(1, full.endsIn), window: full.window)
            }
            entry.hourCount += 1
            entry.dayCount += 1
            table[client.clientID] = entry
            return full == nil ? .allowed : .overUnenforced
        }
    }
}
