import Foundation
import Synchronization

/// Requests per key per minute, a fixed one-minute window per key: the client IP on the passkey, token and
/// device-key endpoints, the user (the access token's subject) on the device-key endpoints and `/device-events`.
///
/// The counters live in this node's memory, so behind a load balancer each node enforces the limit on its own
/// share of the traffic (documented in docs/api.md); the state shared by all nodes stays in the database.
final class RateLimiter: Sendable {
    /// The decision for one request.
    enum Decision: Equatable {
        /// Within the limit.
        case allowed
        /// Over the limit: retry after this many seconds (RFC 6585 §4).
        case limited(retryAfter: Int)
    }

    private struct Window {
        var start: Int
        var count: Int
    }

    private struct State {
        var windows: [String: Window] = [:]
        var currentMinute = 0
    }

    /// Requests allowed per key per minute; 0 disables the limit.
    let limit: Int
    /// Most keys tracked at once; beyond it the table is reset (a flood of spoofed-looking addresses
    /// must not grow memory without bound).
    let maxAddresses: Int
    private let state = Mutex(State())

    /// A limiter allowing `limit` requests per key per minute.
    init(limit: Int, maxAddresses: Int = 100_000) {
        self.limit = limit
        self.maxAddresses = maxAddresses
    }

    /// Counts one request from `address` at `now`.
    func check(address: String?, now: Date) -> Decision {
        check(key: address ?? "unknown", now: now)
    }

    /// Counts one request of `key` (an address, a user id) at `now`.
    func check(key: String, now: Date) -> Decision {
        guard limit > 0 else { return .allowed }
        let seconds = Int(now.timeIntervalSince1970.rounded(.down))
        let minute = seconds / 60
        return state.withLock { state in
            // A new minute: every window of the previous ones is stale.
            if minute != state.currentMinute || state.windows.count >= maxAddresses {
                state.windows.removeAll(keepingCapacity: true)
                state.currentMinute = minute
            }
            var window = state.windows[key] ?? Window(start: minute, count: 0)
            window.count += 1
            state.windows[key] = window
            guard window.count <= limit else {
                return .limited(retryAfter: max(1, (minute + 1) * 60 - seconds))
            }
            return .allowed
        }
    }
}
