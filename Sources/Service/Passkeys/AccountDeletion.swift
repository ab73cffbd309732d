import Foundation
import Storage

/// Deleting an account, the user's own (`DELETE /me`) or the operator's (`passkeyd users delete`): one flow.
package enum AccountDeletion {
    /// Deletes `user` with their fallback counters, recording `account_deleted` (with `actor` for an operator).
    package static func deleteUser(_ user: User, store: any Store, now: Date, clientID: String?, actor: String? = nil)
        async throws
    {
        try await store.write { writer in
            // The counters named after the user's identifiers go with the user (the SRP identity's too).
            let counters = FallbackCounterKey.identityLocks(
                of: user, verifier: try writer.passwordVerifier(userID: user.id))
            guard try writer.deleteUser(id: user.id) else { return }
            _ = try writer.resetFallbackCounters(keys: counters)
            _ = try writer.appendSecurityEvent(
                PasskeyLifecycleAuditEvent.make(
                    .accountDeleted, now: now, userID: user.id, clientID: clientID,
                    actor: actor))
        }
    }
}
