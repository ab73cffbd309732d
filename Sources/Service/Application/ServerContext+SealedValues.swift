import Foundation
import Storage

/// Opening what the server sealed and handed out (an `auth_session`, a hosted transaction) with the keyring of
/// `AuthSessionKey`, read again on a miss.
extension ServerContext {
    /// The auth session `value` seals, or nil. A value that opens under none of the loaded secrets makes this node
    /// read them again (`AuthSessionKey.reloadOnDemand`) and try once more: sealed by a node that has read a
    /// rotation this one has not.
    package func openAuthSession(_ value: String) async throws -> AuthSession? {
        if let session = try authSessionKey.sealer().open(value) { return session }
        guard await authSessionKey.reloadOnDemand(store: store, keys: try secrets.get(), now: clock.now()) else {
            return nil
        }
        return try authSessionKey.sealer().open(value)
    }

    /// The live hosted transaction `value` seals at `now`, or nil; read again on a miss as `openAuthSession`.
    package func openHostedTransaction(_ value: String, now: Date) async throws -> HostedTransaction? {
        if let transaction = try authSessionKey.transactionSealer().open(value, now: now) { return transaction }
        guard await authSessionKey.reloadOnDemand(store: store, keys: try secrets.get(), now: now) else {
            return nil
        }
        return try authSessionKey.transactionSealer().open(value, now: now)
    }
}
