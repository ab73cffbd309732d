import Addresses
import Foundation
import JSON
import Synchronization

/// Requests per key per minute, a fixed one-minute window per key: the client's network
/// (`ClientAddressPrefix`: an IPv4 /24, an IPv6 /64) on the passkey, token and device-key endpoints, the user (the
/// access token's subject) on the device-key endpoints and `/device-events`.
///
/// The counters live in this node's memory, so behind a load balancer each node enforces the limit on its own
/// share of the traffic (documented in docs/api.md); the state shared by all nodes stays in the database.
package final class RateLimiter: Sendable {
    /// The decision for one request.
    package enum Decision: Equatable {
        /// Within the limit.
        case allowed
        /// Over the limit: retry after this many seconds (RFC 6585 §4).
        case limited(retryAfter: Int)
    }

    private struct State {
        /// Requests per key in the current minute.
        var windows: [String: Int] = [:]
        /// The keys of `windows` from `oldest` on, in the order their windows opened this minute: the front is
        /// evicted first.
        var opened: [String] = []
        var oldest = 0
        var currentMinute = 0

        /// Forgets the window opened first.
        mutating func evictOldest() {
            guard oldest < opened.count else { return }
            windows[opened[oldest]] = nil
            oldest += 1
            // Drops the evicted prefix once it is most of the array, so that the array stays within twice the table.
            if oldest > 64 && oldest * 2 > opened.count {
                opened.removeFirst(oldest)
                oldest = 0
            }
        }
    }

    /// Requests allowed per key per minute; 0 disables the limit.
    package let limit: Int
    /// Most keys tracked at once: a new key beyond it evicts the window opened first, so that a flood of keys
    /// (addresses from many networks) bounds memory without resetting the windows of everyone else.
    package let maxKeys: Int
    private let state = Mutex(State())

    /// A limiter allowing `limit` requests per key per minute, tracking at most `maxKeys` keys.
    package init(limit: Int, maxKeys: Int = 100_000) {
        self.limit = limit
        self.maxKeys = max(1, maxKeys)
    }

    /// Counts one request from `address` at `now`, keyed by its network (`ClientAddressPrefix.key(of:)`): one host
    /// holds a whole IPv6 /64, so a per-address key would let it multiply the limit.
    package func check(address: String?, now: Date) -> Decision {
        check(key: ClientAddressPrefix.key(of: address ?? "unknown"), now: now)
    }

    /// Counts one request of `key` (a network, a user id) at `now`.
    package func check(key: String, now: Date) -> Decision {
        guard limit > 0 else { return .allowed }
        let seconds = Int(now.timeIntervalSince1970.rounded(.down))
        let minute = seconds / 60
        return state.withLock { state in
            // A new minute: every window of the previous ones is stale.
            if minute != state.currentMinute {
                state = State(currentMinute: minute)
            }
            var count = state.windows[key] ?? 0
            if count == 0 {
                while state.windows.count >= maxKeys, state.oldest < state.opened.count { state.evictOldest() }
                state.opened.append(key)
            }
            count += 1
            state.windows[key] = count
            guard count <= limit else {
                return .limited(retryAfter: max(1, (minute + 1) * 60 - seconds))
            }
            return .allowed
        }
    }
}
