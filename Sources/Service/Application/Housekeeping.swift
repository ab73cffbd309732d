import Foundation
import Storage

/// Deletes what has expired — abandoned auth sessions, device challenges, refresh tokens past their absolute
/// lifetime, remembered DPoP proofs past their window, throttle counters no rule reads any more — once a minute, so
/// the tables hold only live state.
///
/// Each write deletes at most `batchLimit` rows of each kind, and a run repeats it until the backlog is gone (up
/// to `maxBatchesPerRun`, the rest waits for the next run). Logins' writes queue behind each one, so it must stay
/// short. Measured here on a database of a million refresh tokens: the day of expired ones it holds after a day's
/// downtime (33,000) took 0.9 s to delete and commit in one transaction, 500 rows about 45 ms, 100 rows about
/// 5 ms.
package enum Housekeeping {
    /// How often expired rows are purged.
    package static let interval: Duration = .seconds(60)
    /// The most rows of each kind one write deletes.
    package static let batchLimit = 100
    /// The most writes one run makes (50,000 rows of each kind).
    package static let maxBatchesPerRun = 500
    /// The most security events one write deletes (`audit.event_retention_days`): deleted through the primary key,
    /// oldest first, so that a run (up to 500,000) keeps up with thousands of events a second.
    package static let eventBatchLimit = 1_000

    /// Starts the loop; cancel the task to stop it.
    package static func start(context: ServerContext) -> Task<Void, Never> {
        Task {
            while !Task.isCancelled {
                do {
                    try await Task.sleep(for: interval)
                } catch {
                    return
                }
                await purge(context: context)
            }
        }
    }

    /// One purge at the context's current time; failures are logged and retried at the next run.
    package static func purge(context: ServerContext) async {
        let now = context.clock.now()
        do {
            let result = try await inBatches(PurgeResult(), +, full: { $0.largest == batchLimit }) {
                try await context.store.write { try $0.purgeExpired(now: now, limit: batchLimit) }
            }
            if result.total > 0 {
                context.logger.log(.debug, "purged expired rows") { line in
                    line.add("auth_sessions", result.authSessions)
                    line.add("device_challenges", result.deviceChallenges)
                    line.add("refresh_tokens", result.refreshTokens)
                    line.add("dpop_proofs", result.dpopProofs)
                    line.add("device_enrolment_nonces", result.deviceEnrolmentNonces)
                    line.add("spent_tokens", result.spentTokens)
                    line.add("spent_auth_sessions", result.spentAuthSessions)
                    line.add("login_sessions", result.loginSessions)
                    line.add("authorization_codes", result.authorizationCodes)
                }
            }
        } catch {
            context.logger.log(.warning, "purge failed") { $0.add("error", String(describing: error)) }
        }
        await purgeFallbackCounters(context: context, now: now)
        await purgeSecurityEvents(context: context, now: now)
    }

    /// Deletes the password fallback's throttle counters that no rule reads any more (`SRPThrottle.staleCounters`):
    /// failures of an identity no one has guessed for a day, of a network quiet for its window. Without it each
    /// identity ever tried (known or not) would keep its row.
    package static func purgeFallbackCounters(context: ServerContext, now: Date) async {
        do {
            var purged = 0
            for stale in SRPThrottle(context.configuration.srp).staleCounters(now: now) {
                purged += try await inBatches(0, +, full: { $0 == batchLimit }) {
                    try await context.store.write {
                        try $0.purgeFallbackCounters(
                            keyPrefix: stale.keyPrefix, lastBefore: stale.before, limit: batchLimit)
                    }
                }
            }
            if purged > 0 {
                context.logger.log(.debug, "purged stale throttle counters") { $0.add("fallback_counters", purged) }
            }
        } catch {
            context.logger.log(.warning, "throttle counter purge failed") { $0.add("error", String(describing: error)) }
        }
    }

    /// Deletes the security events older than `audit.event_retention_days` that the audit log already holds (it
    /// keeps them); nothing when the retention is 0 (forever).
    package static func purgeSecurityEvents(context: ServerContext, now: Date) async {
        let days = context.configuration.audit.eventRetentionDays
        guard days > 0 else { return }
        let cutoff = now.addingTimeInterval(-Double(days) * 86_400)
        do {
            let purged = try await inBatches(0, +, full: { $0 == eventBatchLimit }) {
                try await context.store.write { try $0.purgeSecurityEvents(before: cutoff, limit: eventBatchLimit) }
            }
            if purged > 0 {
                context.logger.log(.debug, "purged security events past their retention") { line in
                    line.add("security_events", purged)
                    line.add("retention_days", days)
                }
            }
        } catch {
            context.logger.log(.warning, "security event purge failed") { $0.add("error", String(describing: error)) }
        }
    }

    /// Runs `batch` (one short write) again while it comes back `full` (more may be left), at most
    /// `maxBatchesPerRun` times and not once the task is cancelled; returns the batches summed with `add`.
    private static func inBatches<Result>(
        _ zero: Result, _ add: (Result, Result) -> Result, full: (Result) -> Bool,
        _ batch: () async throws -> Result
    ) async throws -> Result {
        var total = zero
        for _ in 0..<maxBatchesPerRun {
            let result = try await batch()
            total = add(total, result)
            guard full(result), !Task.isCancelled else { break }
        }
        return total
    }
}
