import Foundation
import Storage

/// Opening what the server sealed and handed out (an `auth_session`, a hosted transaction, a pushed request) with the keyring of
/// `AuthSessionKey`, read again on a miss.
extension ServerContext {
    /// The auth session `value` seals, or nil. A value that opens under none of the loaded secrets makes this node
    /// read them again (`AuthSessionKey.reloadOnDemand`) and try once more: sealed by a node that has read a
    /// rotation this one has not.
    package func openAuthSession(_ value: String) async throws -> AuthSession? {
        try await opened(now: clock.now()) { try authSessionKey.sealer().open(value) }
    }

    /// The live hosted transaction `value` seals at `now`, or nil; read again on a miss as `openAuthSession`.
    package func openHostedTransaction(_ value: String, now: Date) async throws -> HostedTransaction? {
        try await opened(now: now) { try authSessionKey.transactionSealer().open(value, now: now) }
    }

    /// The live pushed authorization request `value` seals at `now` (a `request_uri` without its URN prefix), or nil;
    /// read again on a miss as `openAuthSession`.
    package func openPushedRequest(_ value: String, now: Date) async throws -> PushedAuthorizationRequest? {
        try await opened(now: now) { try authSessionKey.pushedRequestSealer().open(value, now: now) }
    }

    /// `open`, and once more after the secrets were read again on a miss.
    private func opened<Value>(now: Date, _ open: () throws -> Value?) async throws -> Value? {
        if let value = try open() { return value }
        guard await authSessionKey.reloadOnDemand(now: now) else { return nil }
        return try open()
    }
}
