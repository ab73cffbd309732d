import Crypto
import Storage
import Synchronization

/// The key of the sealed auth sessions (`AuthSessionSealer`) and of the hosted page's transactions
/// (`HostedTransactionSealer`, a key of its own derived from the same secret), held by the `ServerContext`: loaded once at start
/// (`load`), before the endpoints that seal and open sessions serve, which then use it without a store round trip.
///
/// The key is derived from a server secret (`server_secrets`, `secretName`): the first node to start inserts it
/// unless present, so every node of one database seals and opens with the same key; with a key-encryption key
/// configured it is stored sealed under it, bound to its name, as the other server secrets
/// (`ServerSecretSealing` seals one stored before the key-encryption key was configured).
package final class AuthSessionKey: Sendable {
    /// The server secret the sealing key is derived from.
    package static let secretName = "auth_session_key"

    private let loaded = Mutex<AuthSessionSealer?>(nil)
    private let transactions = Mutex<HostedTransactionSealer?>(nil)

    /// A holder with no key loaded yet.
    package init() {}

    /// Loads the key from `store` (opened with `keys`), storing a new secret first when there is none; of nodes
    /// inserting at once, all use the first one stored.
    package func load(store: any Store, keys: SecretEncryptionKeys) async throws {
        let name = Self.secretName
        let stored = try await store.read { try $0.serverSecret(name: name) }
        try install(secret: try await NamedServerSecret.secret(name, stored: stored, keys: keys, store: store))
    }

    /// Uses the keys derived from `secret` from now on: the auth sessions' and the hosted transactions'.
    package func install(secret: [UInt8]) throws {
        let sealer = try AuthSessionSealer(secret: secret)
        let transactionSealer = try HostedTransactionSealer(secret: secret)
        loaded.withLock { $0 = sealer }
        transactions.withLock { $0 = transactionSealer }
    }

    /// Uses `sealer` from now on instead of a key loaded from the store: for a context a test makes without a start
    /// (the hosted transactions need `install(secret:)`).
    package func install(_ sealer: AuthSessionSealer) {
        loaded.withLock { $0 = sealer }
    }

    /// The sealer of the loaded key.
    /// - Throws: `OAuthError.bug` before `load` (a start always loads it).
    package func sealer() throws -> AuthSessionSealer {
        guard let sealer = loaded.withLock({ $0 }) else { throw OAuthError.bug("the auth session key is not loaded") }
        return sealer
    }

    /// The sealer of the hosted page's transactions, under a key derived from the same secret.
    /// - Throws: `OAuthError.bug` before `load` (a start always loads it).
    package func transactionSealer() throws -> HostedTransactionSealer {
        guard let sealer = transactions.withLock({ $0 }) else {
            throw OAuthError.bug("the hosted transaction key is not loaded")
        }
        return sealer
    }
}
