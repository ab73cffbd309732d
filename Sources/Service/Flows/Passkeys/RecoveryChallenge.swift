import Crypto
import Foundation
import JSON
import Storage

/// `POST /recovery/challenge` `{client_id, identifier, realm?}` → `{auth_session, expires_in}`: the first step of
/// account recovery with a recovery code, finished by the recovery grant at `/oauth/token` (`RecoveryGrant`).
///
/// The answer is the same whether or not the identifier exists (a session is stored either way, and the grant
/// does the same work for both), and identifiers over the failure limits are delayed or locked alike.
package struct RecoveryChallenge: Sendable {
    package let context: ServerContext

    /// What the request presents, parsed.
    package struct Parameters: Sendable {
        package var client: ClientConfiguration
        package var realm: RealmConfiguration
        /// `identifier` as typed.
        package var identifier: String
        /// The client's address, for the per-network throttle.
        package var address: String

        package init(client: ClientConfiguration, realm: RealmConfiguration, identifier: String, address: String) {
            self.client = client
            self.realm = realm
            self.identifier = identifier
            self.address = address
        }
    }

    package init(context: ServerContext) {
        self.context = context
    }

    /// Opens a recovery session: the answer's JSON body.
    /// - Throws: 429 `too_many_requests` (delayed) or 403 `recovery_locked` when the throttle says so (recorded).
    package func open(_ parameters: Parameters) async throws -> JSONValue {
        let client = parameters.client
        let realm = parameters.realm
        let identifier = AccountRecovery.normalized(parameters.identifier) ?? parameters.identifier
        let now = context.clock.now()
        let identifierKey = FallbackCounterKey.recoveryIdentifier(realm: realm.name, identifier: identifier)
        let addressKey = ThrottledAttempt.recoveryAddressKey(parameters.address)
        let found = try await context.store.read { reader in
            (
                user: try AccountRecovery.lookup(reader, realm: realm.name, identifier: identifier),
                identifierFailures: try reader.fallbackCounter(key: identifierKey),
                addressFailures: try reader.fallbackCounter(key: addressKey)
            )
        }
        try await AccountRecovery.enforce(
            AccountRecovery.throttle(context.configuration).decide(
                identity: found.identifierFailures, address: found.addressFailures, now: now),
            userID: found.user?.id, clientID: client.clientID, attempts: found.identifierFailures?.count, now: now,
            store: context.store)
        let handle = try AuthSessionHandle.generate()
        let session = AuthSession(
            id: handle.sessionID, clientID: client.clientID, realm: realm.name, kind: .login,
            challenge: try SecureRandom.bytes(count: 32), username: identifier, name: AccountRecovery.sessionMarker,
            userHandle: found.user?.userHandle, createdAt: now,
            expiresAt: now.addingTimeInterval(AccountRecovery.sessionLifetime))
        let userID = found.user?.id
        try await context.store.write { writer in
            try writer.insertAuthSession(session)
            _ = try writer.appendSecurityEvent(
                PasskeyLifecycleAuditEvent.make(
                    .recoveryChallenge, now: now, userID: userID, clientID: client.clientID))
        }
        context.metrics.count(event: "recovery_challenge")
        return .object([
            JSONMember(key: "auth_session", value: .string(handle.value)),
            JSONMember(key: "expires_in", value: .number(String(Int(AccountRecovery.sessionLifetime)))),
        ])
    }
}
