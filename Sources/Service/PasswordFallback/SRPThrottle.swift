import Configuration
import Foundation
import Storage

/// The online-guessing brake of the password fallback (SRP logins, and recovery codes with a lower limit), one rule
/// for both (docs/password-fallback.md, "Online guessing"). Pure: the counters and the time are parameters.
///
/// - Per identity (known or not), from anywhere: from `delayAfterFailures` failures each further attempt waits twice
///   as long as the one before (1 s, 2 s, 4 s, … at most 15 minutes after the last failure); from `maxFailures`
///   the identity is locked for `lockPeriod` after its last failure — a cooling period, after which one attempt is
///   judged again (its failure locks it again). A passkey login or `passkeyd users unlock` lifts the lock at once;
///   the count is forgotten `identityMemory` after the last failure.
/// - Per client network (`ClientAddressPrefix`, an IPv4 /24 or an IPv6 /64), whatever the identity: from
///   `addressDelayAfterFailures` failures within `addressWindow`, the same doubling delay. Set higher than the
///   identity's, so that one client behind a shared address (CGNAT) does not soon delay everyone behind it.
package struct SRPThrottle: Sendable {
    /// What an attempt may do.
    package enum Decision: Sendable, Equatable {
        case allowed
        /// Wait this many seconds (429 with `Retry-After`).
        case delayed(retryAfter: Int)
        /// The identity is locked for this many seconds more (403 `password_locked` / `recovery_locked`, with
        /// `Retry-After`).
        case locked(retryAfter: Int)
    }

    /// `srp.max_failures` (at most `RecoveryThrottleKeys.maximumFailures` for recovery).
    package let maxFailures: Int
    /// `srp.delay_after_failures`.
    package let delayAfterFailures: Int
    /// `srp.lock_seconds`: how long an identity stays locked after a failure from `maxFailures` on.
    package let lockPeriod: TimeInterval
    /// `srp.address_delay_after_failures`.
    package let addressDelayAfterFailures: Int
    /// `srp.address_window_seconds`: a network's count older than this no longer counts.
    package let addressWindow: TimeInterval
    /// The longest delay.
    package static let maximumDelay: TimeInterval = 900
    /// How long an identity's count is kept after its last failure (at least `srp.lock_seconds`, which is at most
    /// a day): a patient guesser starts again from zero no sooner than this.
    package static let identityMemory: TimeInterval = 86_400

    package init(_ settings: ServerConfiguration.SRPSettings) {
        maxFailures = settings.maxFailures
        delayAfterFailures = settings.delayAfterFailures
        lockPeriod = TimeInterval(settings.lockSeconds)
        addressDelayAfterFailures = settings.addressDelayAfterFailures
        addressWindow = TimeInterval(settings.addressWindowSeconds)
    }

    /// The decision for an attempt at `now`, given the identity's and the network's failure counters.
    package func decide(identity: FallbackCounter?, address: FallbackCounter?, now: Date) -> Decision {
        var wait: TimeInterval = 0
        if let identity, identity.lastAt >= identityWindowStart(now: now) {
            if identity.count >= maxFailures {
                let cooling = identity.lastAt.addingTimeInterval(lockPeriod).timeIntervalSince(now)
                if cooling > 0 { return .locked(retryAfter: Int(cooling.rounded(.up))) }
            } else {
                wait = remaining(identity, after: delayAfterFailures, now: now)
            }
        }
        if let address, address.lastAt >= addressWindowStart(now: now) {
            wait = max(wait, remaining(address, after: addressDelayAfterFailures, now: now))
        }
        return wait > 0 ? .delayed(retryAfter: Int(wait.rounded(.up))) : .allowed
    }

    /// The delay earned by `count` failures where the delay starts after `threshold`: none below it, then 1 s
    /// doubling per failure, at most `maximumDelay`.
    package static func delay(afterFailures count: Int, threshold: Int) -> TimeInterval {
        guard count >= threshold else { return 0 }
        let exponent = min(count - threshold, 20)
        return min(Double(1 << exponent), maximumDelay)
    }

    private func remaining(_ counter: FallbackCounter, after threshold: Int, now: Date) -> TimeInterval {
        let delay = Self.delay(afterFailures: counter.count, threshold: threshold)
        return max(0, counter.lastAt.addingTimeInterval(delay).timeIntervalSince(now))
    }

    /// Where the window of a network's count starts at `now` (`incrementFallbackCounter`'s cutoff, and older
    /// counters are purged).
    package func addressWindowStart(now: Date) -> Date {
        now.addingTimeInterval(-addressWindow)
    }

    /// Where an identity's count starts at `now`: a count last incremented before is forgotten (the increment's
    /// cutoff, and older counters are purged).
    package func identityWindowStart(now: Date) -> Date {
        now.addingTimeInterval(-Self.identityMemory)
    }

    /// The counters no rule reads any more at `now`, by key prefix: those last counted before `before` (the
    /// identities' and networks' windows, SRP and recovery alike), which housekeeping purges.
    package func staleCounters(now: Date) -> [(keyPrefix: String, before: Date)] {
        [
            (FallbackCounterKey.identityPrefix, identityWindowStart(now: now)),
            (FallbackCounterKey.recoveryIdentifierPrefix, identityWindowStart(now: now)),
            (FallbackCounterKey.addressPrefix, addressWindowStart(now: now)),
            (FallbackCounterKey.recoveryAddressPrefix, addressWindowStart(now: now)),
        ]
    }

    /// Whether a failure that brought an identity's count to `count` locks it (the first time, or again after a
    /// cooling period).
    package func locks(atFailures count: Int) -> Bool {
        count >= maxFailures
    }
}
