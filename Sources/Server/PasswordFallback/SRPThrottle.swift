import Foundation
import Storage

/// The online-guessing brake of the password fallback: after `delayAfterFailures` failed logins of one identity
/// (or from one address) each further attempt waits twice as long as the one before (1 s, 2 s, 4 s, … at most
/// 15 minutes); `maxFailures` failed logins of one identity lock it until a passkey login. Pure: the counters
/// and the time are parameters.
struct SRPThrottle: Sendable {
    /// What an attempt may do.
    enum Decision: Sendable, Equatable {
        case allowed
        /// Wait this many seconds (429 with `Retry-After`).
        case delayed(retryAfter: Int)
        /// The identity is locked (403 `password_locked`).
        case locked
    }

    /// `srp.max_failures`.
    let maxFailures: Int
    /// `srp.delay_after_failures`.
    let delayAfterFailures: Int
    /// `srp.address_window_seconds`: an address's count older than this no longer counts.
    let addressWindow: TimeInterval
    /// The longest delay.
    static let maximumDelay: TimeInterval = 900

    init(_ settings: ServerConfiguration.SRPSettings) {
        maxFailures = settings.maxFailures
        delayAfterFailures = settings.delayAfterFailures
        addressWindow = TimeInterval(settings.addressWindowSeconds)
    }

    /// The decision for an attempt at `now`, given the identity's and the address's failure counters.
    func decide(identity: FallbackCounter?, address: FallbackCounter?, now: Date) -> Decision {
        if let identity, identity.count >= maxFailures { return .locked }
        var wait: TimeInterval = 0
        if let identity { wait = max(wait, remaining(identity, now: now)) }
        if let address, now.timeIntervalSince(address.lastAt) < addressWindow {
            wait = max(wait, remaining(address, now: now))
        }
        return wait > 0 ? .delayed(retryAfter: Int(wait.rounded(.up))) : .allowed
    }

    /// The delay earned by `count` failures: none below `delayAfterFailures`, then 1 s doubling per failure.
    func delay(afterFailures count: Int) -> TimeInterval {
        guard count >= delayAfterFailures else { return 0 }
        let exponent = min(count - delayAfterFailures, 20)
        return min(Double(1 << exponent), Self.maximumDelay)
    }

    private func remaining(_ counter: FallbackCounter, now: Date) -> TimeInterval {
        max(0, counter.lastAt.addingTimeInterval(delay(afterFailures: counter.count)).timeIntervalSince(now))
    }

    /// Where the window of an address's count starts at `now` (`incrementFallbackCounter`'s cutoff).
    func addressWindowStart(now: Date) -> Date {
        now.addingTimeInterval(-addressWindow)
    }
}
