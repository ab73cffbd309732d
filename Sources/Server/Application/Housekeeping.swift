import Foundation
import Storage

/// Deletes what has expired — abandoned auth sessions, device challenges, refresh tokens past their absolute
/// lifetime — once a minute, so the tables hold only live state. One short write per run.
enum Housekeeping {
    /// How often expired rows are purged.
    static let interval: Duration = .seconds(60)

    /// Starts the loop; cancel the task to stop it.
    static func start(context: ServerContext) -> Task<Void, Never> {
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
    static func purge(context: ServerContext) async {
        let now = context.clock.now()
        do {
            let result = try await context.store.write { try $0.purgeExpired(now: now) }
            if result.authSessions + result.deviceChallenges + result.refreshTokens > 0 {
                context.logger.log(.debug, "purged expired rows") { line in
                    line.add("auth_sessions", result.authSessions)
                    line.add("device_challenges", result.deviceChallenges)
                    line.add("refresh_tokens", result.refreshTokens)
                }
            }
        } catch {
            context.logger.log(.warning, "purge failed") { $0.add("error", String(describing: error)) }
        }
    }
}
